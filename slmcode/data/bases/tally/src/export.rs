use crate::entry::Entry;

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// The entries as CSV: date,category,amount,description.
pub fn to_csv(entries: &[Entry]) -> String {
    let mut out = String::from("date,category,amount,description\n");
    for e in entries {
        out.push_str(&format!("{},{},{},{}\n", e.date, quote(&e.category), e.amount, quote(&e.description)));
    }
    out
}
