//! The phone as a whole (DESIGN.md's second way in): app-usage traces drive apps, the low memory
//! killer and page-level reclaim on the same engine (see `sim`).

pub mod catalog;
pub mod categories;
pub mod cpu;
pub mod job;
pub mod killer;
pub mod meters;
pub mod phone;
pub mod phones;
pub mod ranges;
pub mod sim;
pub mod synthetic_usage;
pub mod usage;
pub mod ux;

pub use catalog::{AppCatalog, AppProfile};
pub use job::{Library, PhoneJob, UsageSpec};
pub use meters::{LaunchRecord, PhoneResult, SystemMeters};
pub use phone::{Phone, Phones};
pub use sim::{simulate_phone, PhoneRun};
pub use usage::{Launch, UsageStats, UsageTrace};
