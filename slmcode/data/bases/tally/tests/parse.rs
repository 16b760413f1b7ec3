use tally::parse::parse_ledger;
use tally::{Amount, Date, TallyError};

#[test]
fn parses_lines_and_skips_comments() {
    let text = "; March\n2024-03-01 Rent -850.00 March rent\n\n2024-03-02 food -12.5 weekly shop\n";
    let entries = parse_ledger(text).unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0].category, "rent");
    assert_eq!(entries[1].amount, Amount(-1250));
    assert_eq!(entries[1].date, Date::new(2024, 3, 2).unwrap());
}

#[test]
fn reports_the_bad_line() {
    let err = parse_ledger("2024-03-01 food -1\n2024-13-01 food -1\n").unwrap_err();
    assert!(matches!(err, TallyError::BadLine { line: 2, .. }));
}
