//! What the engine tells its callers: the outcome of one access, of a reclaim, and a read-only
//! view of memory. Callers act on these (queue the I/O, advance a clock, count) and never read the
//! engine's page states or diff its counters.

use std::ops::AddAssign;

/// Why an access faulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// First touch of an anon page: zero-filled, no read.
    ZeroFill,
    /// First touch of an anon page whose image is in swap (`SwapSemantics::first_touch_from_swap`):
    /// read from swap.
    ColdSwap,
    /// First touch of a file page: read from its file.
    ColdFile,
    /// A file page that was evicted and is needed again: read from its file.
    FileReread,
    /// A swapped-out anon page copied back from swap.
    SwapIn,
    /// Direct Read: a read of a swapped page on NVM mapped in place (no frame, no copy).
    Mapped,
    /// Direct Read: a write to a page mapped in place moves it to DRAM (a copy from swap).
    Promoted,
}

impl Fault {
    /// Whether the page was in memory before and left it (a refault of the working set).
    pub fn is_refault(self) -> bool {
        matches!(self, Fault::FileReread | Fault::SwapIn | Fault::Mapped | Fault::Promoted)
    }
}

/// Pages an access or a reclaim took out of memory, by the I/O each needed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Evictions {
    /// Dirty anon pages written to swap.
    pub swap_writes: u32,
    /// Dirty file pages written back to their file.
    pub file_writes: u32,
    /// Clean anon pages whose swap copy was valid: freed with no I/O.
    pub swap_cache_drops: u32,
    /// Clean file pages: dropped with no I/O.
    pub file_drops: u32,
}

impl Evictions {
    /// Pages that left memory.
    #[inline]
    pub fn pages(&self) -> u32 {
        self.swap_writes + self.file_writes + self.swap_cache_drops + self.file_drops
    }

    #[inline(always)]
    pub(crate) fn add(&mut self, io: super::EvictIo, file: bool) {
        use super::EvictIo;
        match io {
            EvictIo::SwapWrite => self.swap_writes += 1,
            EvictIo::FileWrite => self.file_writes += 1,
            EvictIo::None if file => self.file_drops += 1,
            EvictIo::None => self.swap_cache_drops += 1,
        }
    }
}

impl AddAssign for Evictions {
    fn add_assign(&mut self, o: Evictions) {
        self.swap_writes += o.swap_writes;
        self.file_writes += o.file_writes;
        self.swap_cache_drops += o.swap_cache_drops;
        self.file_drops += o.file_drops;
    }
}

/// What one access did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// `None`: a hit (in memory, or a read of a page Direct Read mapped in place).
    pub fault: Option<Fault>,
    /// Pages read from swap: the faulting page (or a Direct Read promotion's copy) and the
    /// read-around neighbours brought in with it.
    pub swap_reads: u32,
    /// Pages read back from zram's backing device (written-back copies).
    pub backing_reads: u32,
    /// Pages read from the file store for the fault (readahead is `Engine::prefetch_file`'s).
    pub file_reads: u32,
    /// Pages the fault pushed out of memory to make room.
    pub evicted: Evictions,
    /// Reads served in place from NVM (Direct Read): a hit, but at the NVM's speed (0 or 1).
    pub mapped_reads: u32,
}

impl Outcome {
    pub const HIT: Outcome = Outcome {
        fault: None,
        swap_reads: 0,
        backing_reads: 0,
        file_reads: 0,
        evicted: Evictions { swap_writes: 0, file_writes: 0, swap_cache_drops: 0, file_drops: 0 },
        mapped_reads: 0,
    };

    #[inline]
    pub fn is_hit(&self) -> bool {
        self.fault.is_none()
    }
}

/// Why a reclaim stopped short of what was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shortfall {
    /// Nothing resident the policy could offer (memory holds only pages it cannot evict).
    Nothing,
    /// Swap is full: dirty anon pages have nowhere to go.
    SwapFull,
    /// The swap admission vetoed every dirty anon page the policy offered (swap off vetoes all).
    Vetoed,
}

/// What a reclaim did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reclaimed {
    pub evicted: Evictions,
    /// Set when fewer pages than asked were reclaimed.
    pub short: Option<Shortfall>,
}

/// A read-only view of memory at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryView {
    /// DRAM frames.
    pub frames: u64,
    /// Frames holding neither a page nor compressed swap.
    pub free: u64,
    /// Pages in memory.
    pub resident: u64,
    /// Of them, file pages (the page cache).
    pub file_resident: u64,
    /// Frames the zram area takes (0 without zram).
    pub zram_frames: u64,
    /// Swap slots in use, and the area's size (`u64::MAX`: unlimited).
    pub swap_used: u64,
    pub swap_cap: u64,
}

/// Pages of a range that a process holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Held {
    pub resident: u64,
    pub swapped: u64,
    /// Pages in memory or in swap (a page in both — the swap cache — counts once).
    pub either: u64,
}

/// Swap-entry lifetimes (`Engine::lifetimes`), in the caller's ticks: every slot written is either
/// in `ended` (freed: its page was written again, or its owner died) or still `valid`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwapLifetimes<'a> {
    pub ended: &'a super::Tally,
    /// Of `ended`, the slots whose owner died.
    pub died: &'a super::Tally,
    pub valid: u64,
}
