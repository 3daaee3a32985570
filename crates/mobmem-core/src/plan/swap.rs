//! A run's swap resolved once, for both ways in: a page trace's `Plan` and a phone's world take
//! their backend, what a swap-in keeps, the costs a policy weighs, the read-around and zram
//! writeback's rounds from here, and the engine's `Setup` is filled from it.

use crate::config::{AnonFirstTouch, PageCluster, SwapCache};
use crate::device::{Catalog, Device};
use crate::error::Result;
use crate::policy::IoCosts;
use crate::swap::backend::{self, SwapBackend, SwapEffects, Ticks, WritebackRounds};
use crate::swap::SwapSemantics;

/// The swap settings a run gives, at either level.
pub struct SwapSettings<'a> {
    /// The swap device; `None`: swap off (a phone may have none).
    pub swap: Option<&'a Device>,
    pub storage: &'a Device,
    pub page_size: u64,
    pub swap_cache: SwapCache,
    pub anon_first_touch: AnonFirstTouch,
    pub page_cluster: PageCluster,
}

/// What the swap settings resolve to.
pub struct SwapPlan {
    /// The swap device's backend; `None`: swap off.
    pub backend: Option<Box<dyn SwapBackend>>,
    /// What the backend means for the run (`SwapBackend::effects`; none with swap off).
    pub effects: SwapEffects,
    pub storage: Device,
    pub semantics: SwapSemantics,
    /// What a policy may weigh: one page's read and write on the swap device (the file store's
    /// with swap off) and on the file store.
    pub costs: IoCosts,
    /// Swap-in read-around, as an order (clusters of 2^order slots): the setting on a block
    /// device; 0 on a synchronous-I/O device (zram reads no neighbours, `SWP_SYNCHRONOUS_IO`) and
    /// with swap off.
    pub page_cluster: u32,
}

impl SwapPlan {
    /// Builds the swap device's backend (devices it names come from `catalog`) and resolves the
    /// rest against it.
    pub fn resolve(s: &SwapSettings, catalog: &Catalog) -> Result<SwapPlan> {
        let backend = s.swap.map(|d| backend::build(d, catalog)).transpose()?;
        let effects = backend.as_ref().map(|b| b.effects()).unwrap_or_default();
        let synchronous = effects.synchronous_io;
        let semantics = SwapSemantics {
            swap_cache: s.swap_cache.keeps(synchronous),
            first_touch_from_swap: s.anon_first_touch == AnonFirstTouch::Swap,
        };
        let ps = s.page_size;
        let io = s.swap.unwrap_or(s.storage);
        let costs = IoCosts {
            swap_read_ns: io.read_time_ns(1, ps),
            swap_write_ns: io.write_time_ns(1, ps),
            file_read_ns: s.storage.read_time_ns(1, ps),
            file_write_ns: s.storage.write_time_ns(1, ps),
            // A page whose copy was dropped at swap-in is written again when it is evicted.
            clean_anon_evict_ns: if semantics.swap_cache { 0.0 } else { io.write_time_ns(1, ps) },
        };
        let page_cluster = if backend.is_none() || synchronous { 0 } else { s.page_cluster.order() };
        Ok(SwapPlan { backend, effects, storage: s.storage.clone(), semantics, costs, page_cluster })
    }

    /// zram writeback's rounds at `page_size`, in the engine's `ticks`; `None`: no writeback.
    pub fn writeback_rounds(&self, page_size: u64, ticks: Ticks) -> Option<WritebackRounds> {
        self.effects.writeback.as_ref().map(|w| w.rounds(page_size, ticks))
    }
}
