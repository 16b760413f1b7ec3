use std::fmt;
use std::ops::{Add, AddAssign};

use crate::error::TallyError;

/// An amount in cents; expenses are negative.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Amount(pub i64);

impl Amount {
    /// "12.5", "-3", "+0.07"; at most two decimals.
    pub fn parse(text: &str) -> Result<Amount, TallyError> {
        let bad = || TallyError::BadAmount(text.to_string());
        let trimmed = text.trim();
        let (negative, digits) = match trimmed.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        if (whole.is_empty() && frac.is_empty()) || !all_digits(whole) || !all_digits(frac) || frac.len() > 2 {
            return Err(bad());
        }
        let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad())? };
        let frac: i64 = match frac.len() {
            0 => 0,
            1 => frac.parse::<i64>().map_err(|_| bad())? * 10,
            _ => frac.parse().map_err(|_| bad())?,
        };
        let cents = whole * 100 + frac;
        Ok(Amount(if negative { -cents } else { cents }))
    }

    pub fn is_expense(&self) -> bool {
        self.0 < 0
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let cents = self.0.abs();
        f.pad(&format!("{}{}.{:02}", sign, cents / 100, cents % 100))
    }
}

impl Add for Amount {
    type Output = Amount;
    fn add(self, other: Amount) -> Amount {
        Amount(self.0 + other.0)
    }
}

impl AddAssign for Amount {
    fn add_assign(&mut self, other: Amount) {
        self.0 += other.0;
    }
}

impl std::iter::Sum for Amount {
    fn sum<I: Iterator<Item = Amount>>(iter: I) -> Amount {
        iter.fold(Amount(0), |a, b| a + b)
    }
}
