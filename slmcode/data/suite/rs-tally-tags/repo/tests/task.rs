use tally::parse::parse_ledger;

#[test]
fn a_tag_leaves_the_description() {
    let entries = parse_ledger("2024-07-02 food -30.00 dinner #Holiday\n").unwrap();
    assert_eq!(entries[0].description, "dinner");
    assert_eq!(entries[0].tags, vec!["holiday".to_string()]);
}
