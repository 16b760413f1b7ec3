use tally::filter::between;
use tally::parse::parse_ledger;
use tally::Date;

#[test]
fn the_last_day_of_the_range_is_included() {
    let entries = parse_ledger("2024-03-31 rent -3\n").unwrap();
    let march = between(&entries, Date::parse("2024-03-01").unwrap(), Date::parse("2024-03-31").unwrap());
    assert_eq!(march.len(), 1);
}
