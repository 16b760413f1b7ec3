use tally::filter::by_tag;
use tally::parse::parse_ledger;

const LEDGER: &str = "2024-07-01 travel -120.00 train to the coast #Holiday #train\n\
2024-07-02 food -30.00 dinner #holiday\n\
2024-07-03 car -60.00 fuel #car\n";

#[test]
fn tags_are_kept_apart_from_the_description() {
    let entries = parse_ledger(LEDGER).unwrap();
    assert_eq!(entries[0].description, "train to the coast");
    assert_eq!(entries[0].tags, vec!["holiday".to_string(), "train".to_string()]);
    assert!(entries[2].tags == vec!["car".to_string()]);
}

#[test]
fn pick_entries_by_tag() {
    let entries = parse_ledger(LEDGER).unwrap();
    let holiday: Vec<i64> = by_tag(&entries, "HOLIDAY").iter().map(|e| e.amount.0).collect();
    assert_eq!(holiday, vec![-12000, -3000]);
    assert_eq!(by_tag(&entries, "#car").len(), 1);
    assert!(by_tag(&entries, "work").is_empty());
}
