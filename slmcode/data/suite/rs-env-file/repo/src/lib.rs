pub mod parse;
pub mod store;
