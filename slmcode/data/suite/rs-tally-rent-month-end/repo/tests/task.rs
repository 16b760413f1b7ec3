use tally::recurring::{expand, Recurring};
use tally::{Amount, Date};

#[test]
fn rent_on_the_31st_falls_on_the_30th_of_april() {
    let rent = Recurring { day: 31, category: "rent".into(), amount: Amount(-1000), description: "rent".into() };
    let days: Vec<Date> = expand(&rent, (2024, 4), (2024, 4)).into_iter().map(|e| e.date).collect();
    assert_eq!(days, vec![Date { year: 2024, month: 4, day: 30 }]);
}
