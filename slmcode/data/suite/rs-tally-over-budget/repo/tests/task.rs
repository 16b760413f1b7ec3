use tally::budget::Budget;
use tally::parse::parse_ledger;
use tally::Amount;

#[test]
fn a_category_past_its_limit_is_over() {
    let entries = parse_ledger("2024-03-01 food -12.00\n").unwrap();
    let mut budget = Budget::new();
    budget.set("food", Amount(1000));
    assert_eq!(budget.over(&entries), vec!["food".to_string()]);
}
