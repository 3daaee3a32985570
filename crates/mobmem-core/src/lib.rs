//! mobmem-core: a trace-driven simulator of a smartphone's memory system. No Python here; the
//! binding crate and the `mobmem` Python package sit on top.
//!
//! Layers: `trace` (formats, generator) → `engine` (page states, faults, swap) driving a
//! `policy` (victim order) with `device` models for I/O time and energy, counting into `meters`.

pub mod config;
pub mod device;
pub mod energy;
pub mod engine;
pub mod error;
pub mod kernel;
pub mod limits;
pub mod meters;
pub mod mrc;
pub(crate) mod parallel;
pub mod params;
pub mod plan;
pub mod policy;
pub mod records;
pub mod replay;
pub mod run;
pub mod swap;
pub mod system;
pub mod trace;
pub mod units;

pub use config::{RunFile, SimConfig};
pub use device::{Catalog, Device};
pub use error::{Error, Result};
pub use meters::Meters;
pub use replay::{reference_loop, simulate, simulate_grid, simulate_stream};
pub use run::RunResult;
pub use trace::{read_trace, write_trace, ReadOptions, Trace, TraceStats};
pub use units::MemorySize;
