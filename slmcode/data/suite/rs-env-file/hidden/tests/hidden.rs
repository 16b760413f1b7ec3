use envfile::store::load;

#[test]
fn comments_and_blanks_skipped() {
    let vars = load("# settings\nA = 1\n\nB=two\n");
    assert_eq!(vars.len(), 2);
    assert_eq!(vars["A"], "1");
    assert_eq!(vars["B"], "two");
}
