use std::collections::BTreeMap;

use crate::parse::parse_all;

/// The variables of an env file.
pub fn load(text: &str) -> BTreeMap<String, String> {
    parse_all(text).into_iter().collect()
}
