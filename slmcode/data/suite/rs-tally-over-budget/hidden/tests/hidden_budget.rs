use tally::budget::Budget;
use tally::parse::parse_ledger;
use tally::Amount;

#[test]
fn categories_past_their_limit() {
    let entries = parse_ledger(
        "2024-03-01 food -120.00\n2024-03-02 Fun -30.00\n2024-03-03 rent -850.00\n2024-03-04 car -99.00\n",
    )
    .unwrap();
    let mut budget = Budget::new();
    budget.set("rent", Amount(85000));
    budget.set("food", Amount(10000));
    budget.set("fun", Amount(2000));
    assert_eq!(budget.over(&entries), vec!["food".to_string(), "fun".to_string()]);
    assert_eq!(budget.remaining(&entries, "rent"), Some(Amount(0)));
}

#[test]
fn nothing_over_without_entries() {
    let mut budget = Budget::new();
    budget.set("food", Amount(100));
    assert!(budget.over(&[]).is_empty());
}
