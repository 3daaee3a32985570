//! mobmem-core: a trace-driven simulator of a smartphone's memory system. No Python here; the
//! binding crate and the `mobmem` Python package sit on top.
//!
//! Layers, bottom up (a file uses the ones below it; `tools/import_circles.py` finds a chain of
//! imports that comes back, and tests/test_layers.py keeps it at none):
//! - leaves: `units`, `error`, `limits`, `kernel` (the Linux constants the models follow),
//!   `params` (typed parameters from TOML for every registry);
//! - settings and data: `energy`, `device` (devices and their catalog), `config` (`SimConfig`,
//!   each knob declared once; `shared_knobs!`, the ones a phone has too), `system::phone` and
//!   `system::phones` (a phone's settings, declared the same way, and its presets), `trace`
//!   (formats, generator);
//! - what a run is made of: `policy` (victim order), `swap` (backends, admissions, semantics),
//!   `meters`;
//! - `plan`, the only resolver: the knobs both levels share resolved once (`plan::Common`: the
//!   backend, what a swap-in keeps, the costs, the admission), a page run's `Plan` and a phone's
//!   `PhonePlan` around it;
//! - `engine` (residency, faults, swap, typed outcomes), set up from a `plan::Common`
//!   (`Setup::with_plan`) and driven by the two ways in: `replay` (a page trace, from its `Plan`)
//!   and `system` (the phone: app usage made into page touches, from its `PhonePlan`);
//! - results: `run` (`RunResult`), `records` (their schema), and `mrc` (miss-ratio curves).

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
