//! tally: a plain-text household ledger: parsing, filtering, budgets, monthly reports.

pub mod budget;
pub mod date;
pub mod entry;
pub mod error;
pub mod export;
pub mod filter;
pub mod money;
pub mod parse;
pub mod recurring;
pub mod report;
pub mod split;

pub use date::Date;
pub use entry::Entry;
pub use error::TallyError;
pub use money::Amount;
