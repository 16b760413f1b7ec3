use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TallyError {
    BadDate(String),
    BadAmount(String),
    BadLine { line: usize, reason: String },
}

impl fmt::Display for TallyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TallyError::BadDate(text) => write!(f, "not a date: {text}"),
            TallyError::BadAmount(text) => write!(f, "not an amount: {text}"),
            TallyError::BadLine { line, reason } => write!(f, "line {line}: {reason}"),
        }
    }
}

impl std::error::Error for TallyError {}
