use crate::date::Date;
use crate::entry::Entry;

pub fn in_category<'a>(entries: &'a [Entry], category: &str) -> Vec<&'a Entry> {
    let wanted = category.to_lowercase();
    entries.iter().filter(|e| e.category == wanted).collect()
}

/// Entries dated from `from` to `to`, both days included.
pub fn between<'a>(entries: &'a [Entry], from: Date, to: Date) -> Vec<&'a Entry> {
    entries.iter().filter(|e| from <= e.date && e.date <= to).collect()
}

/// Entries carrying `tag` (with or without its '#', any case).
pub fn by_tag<'a>(entries: &'a [Entry], tag: &str) -> Vec<&'a Entry> {
    entries.iter().filter(|e| e.has_tag(tag)).collect()
}

pub fn expenses(entries: &[Entry]) -> Vec<&Entry> {
    entries.iter().filter(|e| e.amount.is_expense()).collect()
}
