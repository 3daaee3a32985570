//! One run's result record: the resolved configuration, the trace's statistics and the meters. It
//! sits above the plan and the engine (it holds both's output), so neither imports it.

use crate::meters::Meters;
use crate::trace::TraceStats;
use serde::Serialize;

/// One run's result record.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RunResult {
    pub config: crate::plan::ResolvedConfig,
    pub trace: TraceStats,
    pub meters: Meters,
    /// The swap area's energy by the DR. Swap paper's model, when the swap device names one
    /// (N_rd = swap_ins, the copies made; N_wr = swap_outs).
    pub swap_energy: Option<crate::energy::SwapEnergy>,
    /// Wall-clock time of the replay itself (not of reading the trace).
    pub wall_time_s: f64,
    pub accesses_per_s: f64,
}
