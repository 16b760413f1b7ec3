/// One `KEY=VALUE` line.
pub fn parse_line(line: &str) -> (String, String) {
    let (key, value) = line.split_once('=').expect("a line holds KEY=VALUE");
    (key.trim().to_string(), value.trim().to_string())
}

/// Every pair of a file, in order.
pub fn parse_all(text: &str) -> Vec<(String, String)> {
    text.lines().map(parse_line).collect()
}
