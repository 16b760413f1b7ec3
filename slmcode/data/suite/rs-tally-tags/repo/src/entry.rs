use crate::date::Date;
use crate::money::Amount;

/// One line of the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub date: Date,
    pub category: String,
    pub amount: Amount,
    pub description: String,
}

impl Entry {
    pub fn new(date: Date, category: &str, amount: Amount, description: &str) -> Entry {
        Entry { date, category: category.to_lowercase(), amount, description: description.to_string() }
    }
}
