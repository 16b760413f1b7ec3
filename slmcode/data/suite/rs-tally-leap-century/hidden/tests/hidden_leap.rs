use tally::parse::parse_ledger;
use tally::Date;

#[test]
fn february_29_of_2000_is_a_date() {
    let entries = parse_ledger("2000-02-29 food -3.20 bread\n").unwrap();
    assert_eq!(entries[0].date, Date { year: 2000, month: 2, day: 29 });
}

#[test]
fn other_years_keep_their_rules() {
    assert!(Date::parse("1900-02-29").is_err());
    assert!(Date::parse("2024-02-29").is_ok());
    assert!(Date::parse("2023-02-29").is_err());
}
