//! Swap: what may go to swap (`admission`). Each kind of thing is one file plus one registry line.

pub mod admission;

pub use admission::{OwnerState, Owners, Scope, SwapAdmission};
