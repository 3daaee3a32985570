//! Swap: where swapped pages are kept (`backend`) and which may go there (`admission`). Each kind
//! of thing is one file plus one registry line.

pub mod admission;
pub mod backend;
pub mod history;
pub mod hotness;
pub mod semantics;

pub use admission::{
    counts_as_live, OwnerState, Owners, Reuse, ReuseUnit, Scope, SwapAdmission, COLD, HOT, SHARED, WARM,
};
pub use backend::SwapBackend;
pub use semantics::SwapSemantics;
