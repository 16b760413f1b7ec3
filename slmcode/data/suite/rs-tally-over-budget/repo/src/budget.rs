use std::collections::BTreeMap;

use crate::entry::Entry;
use crate::money::Amount;

/// A spending limit per category (a positive amount); expenses are negative entries.
#[derive(Debug, Default)]
pub struct Budget {
    limits: BTreeMap<String, Amount>,
}

impl Budget {
    pub fn new() -> Budget {
        Budget::default()
    }

    pub fn set(&mut self, category: &str, limit: Amount) {
        self.limits.insert(category.to_lowercase(), limit);
    }

    /// What is left of the category's limit after its entries; None without a limit.
    pub fn remaining(&self, entries: &[Entry], category: &str) -> Option<Amount> {
        let key = category.to_lowercase();
        let limit = *self.limits.get(&key)?;
        let spent: Amount = entries.iter().filter(|e| e.category == key).map(|e| e.amount).sum();
        Some(limit + spent)
    }
}
