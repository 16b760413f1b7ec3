use numtools::{gcd, lcm};

#[test]
fn zero_right() {
    assert_eq!(gcd(7, 0), 7);
}

#[test]
fn zero_left() {
    assert_eq!(gcd(0, 9), 9);
}

#[test]
fn both_zero() {
    assert_eq!(gcd(0, 0), 0);
}

#[test]
fn lcm_still_works() {
    assert_eq!(lcm(4, 6), 12);
}
