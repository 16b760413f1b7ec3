use crate::date::Date;
use crate::entry::Entry;
use crate::money::Amount;

/// Something paid every month on the same day, like rent.
#[derive(Debug, Clone)]
pub struct Recurring {
    pub day: u32,
    pub category: String,
    pub amount: Amount,
    pub description: String,
}

/// One entry per month from `from` to `to` (year, month), both included.
pub fn expand(recurring: &Recurring, from: (i32, u32), to: (i32, u32)) -> Vec<Entry> {
    let mut entries = Vec::new();
    let (mut year, mut month) = from;
    while (year, month) <= to {
        if let Ok(date) = Date::new(year, month, recurring.day) {
            entries.push(Entry::new(date, &recurring.category, recurring.amount, &recurring.description));
        }
        month += 1;
        if month > 12 {
            month = 1;
            year += 1;
        }
    }
    entries
}
