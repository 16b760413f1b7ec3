use std::collections::BTreeMap;

use crate::entry::Entry;
use crate::money::Amount;

pub fn totals_by_month(entries: &[Entry]) -> BTreeMap<String, Amount> {
    let mut totals = BTreeMap::new();
    for entry in entries {
        *totals.entry(entry.date.month_key()).or_default() += entry.amount;
    }
    totals
}

pub fn totals_by_category(entries: &[Entry]) -> BTreeMap<String, Amount> {
    let mut totals = BTreeMap::new();
    for entry in entries {
        *totals.entry(entry.category.clone()).or_default() += entry.amount;
    }
    totals
}

/// One month as text: a line per category (name padded to 12), then the total.
pub fn render_month(entries: &[Entry], month: &str) -> String {
    let of_month: Vec<Entry> = entries.iter().filter(|e| e.date.month_key() == month).cloned().collect();
    let mut out = format!("{month}\n");
    for (category, amount) in totals_by_category(&of_month) {
        out.push_str(&format!("{category:<12}{amount:>10}\n"));
    }
    let total: Amount = of_month.iter().map(|e| e.amount).sum();
    out.push_str(&format!("{:<12}{:>10}\n", "total", total));
    out
}
