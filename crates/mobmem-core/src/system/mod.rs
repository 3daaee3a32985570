//! The phone as a whole (DESIGN.md's second way in): app-usage traces drive apps, the low memory
//! killer and page-level reclaim on the same engine. So far: app-usage traces and scenarios.

pub mod catalog;
pub mod killer;
pub mod usage;

pub use catalog::{AppCatalog, AppProfile};
pub use usage::{Launch, UsageStats, UsageTrace};
