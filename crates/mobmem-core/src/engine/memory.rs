//! What a page trace replays against: flat memory (`Engine`) or a DRAM and a PCM tier
//! (`tiered::Tiered`). The driver (`crate::replay`) feeds it runs of access words and, between
//! runs, the trace's processes where they change; each memory runs its own loops over a run, so
//! that the flat engine's hit path stays what it is without tiers (`Engine::replay_chunk`).

use super::{tiered, Engine};
use crate::error::Result;
use crate::meters::Meters;
use crate::policy::hybrid::TierPolicy;
use crate::policy::Policy;
use crate::swap::OwnerState;

/// The flat engine follows processes under a swap admission (only it looks at them); the tiers
/// always do (each access's time is its process's class's). The driver knows which from the plan.
pub(crate) trait Memory {
    /// The processes are `now` (in the order of `swap::Owners::procs`), `live_apps` of them
    /// counting as live, from access `index` on.
    fn processes_changed(&mut self, index: usize, now: &[OwnerState], live_apps: u32);
    /// Replays `words`, accesses `first..` of the trace.
    fn replay_chunk(&mut self, words: &[u32], first: usize) -> Result<()>;
    fn into_meters(self) -> Meters;
}

impl<P: Policy> Memory for Engine<P> {
    fn processes_changed(&mut self, index: usize, now: &[OwnerState], live_apps: u32) {
        self.change_owners(index, |o| {
            o.procs.clone_from_slice(now);
            o.live_apps = live_apps;
        });
    }

    fn replay_chunk(&mut self, words: &[u32], first: usize) -> Result<()> {
        Engine::replay_chunk(self, words, first)
    }

    fn into_meters(self) -> Meters {
        Engine::into_meters(self)
    }
}

impl<T: TierPolicy> Memory for tiered::Tiered<T> {
    fn processes_changed(&mut self, _index: usize, now: &[OwnerState], _live_apps: u32) {
        self.set_classes(now);
    }

    fn replay_chunk(&mut self, words: &[u32], first: usize) -> Result<()> {
        tiered::Tiered::replay_chunk(self, words, first)
    }

    fn into_meters(self) -> Meters {
        tiered::Tiered::into_meters(self)
    }
}
