use tally::Amount;

#[test]
fn a_refund_under_one_keeps_its_minus() {
    assert_eq!(Amount(-50).to_string(), "-0.50");
}
