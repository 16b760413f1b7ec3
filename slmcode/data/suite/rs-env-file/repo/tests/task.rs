use envfile::store::load;

#[test]
fn a_comment_line_is_skipped() {
    let vars = load("# where\nHOST = example\n");
    assert_eq!(vars.len(), 1);
    assert_eq!(vars["HOST"], "example");
}
