use tally::split::split_evenly;
use tally::Amount;

#[test]
fn the_shares_add_up_to_the_bill() {
    assert_eq!(split_evenly(Amount(1000), 3), vec![Amount(334), Amount(333), Amount(333)]);
}
