use tally::recurring::{expand, Recurring};
use tally::{Amount, Date};

fn rent(day: u32) -> Recurring {
    Recurring { day, category: "rent".into(), amount: Amount(-85000), description: "rent".into() }
}

#[test]
fn short_months_use_their_last_day() {
    let days: Vec<Date> = expand(&rent(31), (2024, 1), (2024, 4)).into_iter().map(|e| e.date).collect();
    assert_eq!(days, vec![
        Date { year: 2024, month: 1, day: 31 },
        Date { year: 2024, month: 2, day: 29 },
        Date { year: 2024, month: 3, day: 31 },
        Date { year: 2024, month: 4, day: 30 },
    ]);
}

#[test]
fn across_the_new_year() {
    let entries = expand(&rent(30), (2023, 12), (2024, 2));
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[2].date, Date { year: 2024, month: 2, day: 29 });
    assert_eq!(entries[0].description, "rent");
}
