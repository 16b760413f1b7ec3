use tally::Date;

#[test]
fn february_29_of_2000_is_a_date() {
    assert!(Date::parse("2000-02-29").is_ok());
}
