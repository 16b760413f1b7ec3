use tally::parse::parse_ledger;
use tally::report::{render_month, totals_by_month};
use tally::Amount;

const LEDGER: &str = "2024-03-01 rent -850.00\n2024-03-05 food -20.00\n2024-04-01 rent -850.00\n";

#[test]
fn totals_per_month() {
    let entries = parse_ledger(LEDGER).unwrap();
    let totals = totals_by_month(&entries);
    assert_eq!(totals["2024-03"], Amount(-87000));
    assert_eq!(totals.len(), 2);
}

#[test]
fn renders_a_month() {
    let entries = parse_ledger(LEDGER).unwrap();
    let text = render_month(&entries, "2024-03");
    assert!(text.ends_with("total          -870.00\n"), "{text}");
}
