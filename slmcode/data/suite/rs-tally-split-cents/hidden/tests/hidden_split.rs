use tally::split::{split_by_weight, split_evenly};
use tally::Amount;

#[test]
fn odd_cents_go_to_the_first_people() {
    assert_eq!(split_evenly(Amount(1000), 3), vec![Amount(334), Amount(333), Amount(333)]);
    assert_eq!(split_evenly(Amount(1001), 4), vec![Amount(251), Amount(250), Amount(250), Amount(250)]);
}

#[test]
fn refunds_split_the_same_way() {
    let shares = split_evenly(Amount(-1000), 3);
    assert_eq!(shares, vec![Amount(-334), Amount(-333), Amount(-333)]);
}

#[test]
fn weights_still_add_up() {
    let shares = split_by_weight(Amount(1000), &[2, 1]);
    assert_eq!(shares.iter().map(|a| a.0).sum::<i64>(), 1000);
}
