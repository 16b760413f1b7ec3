use tally::Amount;

#[test]
fn parse_and_display() {
    assert_eq!(Amount::parse("12.5").unwrap(), Amount(1250));
    assert_eq!(Amount::parse("-3").unwrap().to_string(), "-3.00");
    assert_eq!(Amount(123456).to_string(), "1234.56");
    assert!(Amount::parse("1.234").is_err());
}
