use numtools::gcd;

#[test]
fn gcd_with_zero_is_the_other_number() {
    assert_eq!(gcd(12, 0), 12);
}
