//! Reading the ledger: "DATE CATEGORY AMOUNT [description words] [#tags]"; blank lines and lines starting
//! with ';' are skipped.

use crate::date::Date;
use crate::entry::Entry;
use crate::error::TallyError;
use crate::money::Amount;

pub fn parse_line(line: &str) -> Result<Entry, String> {
    let mut words = line.split_whitespace();
    let (Some(date), Some(category), Some(amount)) = (words.next(), words.next(), words.next()) else {
        return Err("expected a date, a category and an amount".to_string());
    };
    let date = Date::parse(date).map_err(|e| e.to_string())?;
    let amount = Amount::parse(amount).map_err(|e| e.to_string())?;
    let mut description = Vec::new();
    let mut tags = Vec::new();
    for word in words {
        match word.strip_prefix('#') {
            Some(tag) if !tag.is_empty() => tags.push(tag.to_lowercase()),
            _ => description.push(word),
        }
    }
    Ok(Entry { date, category: category.to_lowercase(), amount, description: description.join(" "), tags })
}

pub fn parse_ledger(text: &str) -> Result<Vec<Entry>, TallyError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        let entry = parse_line(trimmed).map_err(|reason| TallyError::BadLine { line: index + 1, reason })?;
        entries.push(entry);
    }
    Ok(entries)
}
