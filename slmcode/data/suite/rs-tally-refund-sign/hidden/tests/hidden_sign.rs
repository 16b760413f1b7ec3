use tally::parse::parse_ledger;
use tally::report::render_month;
use tally::Amount;

#[test]
fn amounts_under_one_keep_their_sign() {
    assert_eq!(Amount(-50).to_string(), "-0.50");
    assert_eq!(Amount(-7).to_string(), "-0.07");
    assert_eq!(Amount(50).to_string(), "0.50");
    assert_eq!(Amount(-350).to_string(), "-3.50");
}

#[test]
fn the_report_shows_the_refund() {
    let entries = parse_ledger("2024-03-01 fees 0.50 refund\n2024-03-02 food -0.80 gum\n").unwrap();
    let text = render_month(&entries, "2024-03");
    assert!(text.contains("food             -0.80\n"), "{text}");
    assert!(text.ends_with("total            -0.30\n"), "{text}");
}
