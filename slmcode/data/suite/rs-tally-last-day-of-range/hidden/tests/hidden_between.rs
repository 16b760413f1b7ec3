use tally::filter::between;
use tally::parse::parse_ledger;
use tally::Date;

#[test]
fn both_ends_are_included() {
    let text = "2024-02-29 food -1\n2024-03-01 food -2\n2024-03-31 rent -3\n2024-04-01 rent -4\n";
    let entries = parse_ledger(text).unwrap();
    let march = between(&entries, Date::parse("2024-03-01").unwrap(), Date::parse("2024-03-31").unwrap());
    let amounts: Vec<i64> = march.iter().map(|e| e.amount.0).collect();
    assert_eq!(amounts, vec![-200, -300]);
}

#[test]
fn a_single_day() {
    let entries = parse_ledger("2024-03-31 rent -3\n").unwrap();
    let day = Date::parse("2024-03-31").unwrap();
    assert_eq!(between(&entries, day, day).len(), 1);
}
