//! A page's state byte: its flags, what an access does to them, and how an eviction and a fault
//! read them.

use crate::trace::{Op, PageId};

/// In memory (DRAM, or a tier).
pub const RESIDENT: u8 = 1;
/// Touched at least once (a later fault is not cold).
pub const SEEN: u8 = 2;
/// Swap-backed: written at some point (or declared anon).
pub const ANON: u8 = 4;
/// Modified since it was read in (anon: no valid swap copy; file: needs write-back).
pub const DIRTY: u8 = 8;
/// Holds a swap slot with a valid copy (swap cache).
pub const SWAP_VALID: u8 = 16;
/// Declared file-backed: a write dirties it but does not make it anon.
pub const FILE_FIXED: u8 = 32;
/// Mapped read-only in place in the NVM swap area (Direct Read): occupies its swap slot, no frame.
pub const NVM_MAPPED: u8 = 64;
/// zram writeback: the swap copy was written back to the backing device (it takes no DRAM).
pub const BACKED: u8 = 128;

/// Whether a page with flags `f` is anon once an access `op` is done (a write makes an undeclared
/// page anon).
#[inline(always)]
pub fn becomes_anon(f: u8, op: Op) -> bool {
    f & ANON != 0 || (op.is_write() && f & FILE_FIXED == 0)
}

/// A page's flags `f` after an access, a write when `write`: a write dirties the page, makes a
/// page of unknown kind anon, and makes a swap copy stale. No branch.
#[inline(always)]
pub fn touched(f: u8, write: bool) -> u8 {
    let w = 0u8.wrapping_sub(write as u8); // all ones for a write
    let unknown = ((f & (FILE_FIXED | ANON) == 0) as u8).wrapping_neg();
    (f | ((DIRTY | (ANON & unknown)) & w)) & !(SWAP_VALID & w)
}

/// The class of an evicted page with flags `f` (`Pages::evicted`): its ANON, DIRTY and
/// SWAP_VALID bits.
#[inline(always)]
pub(super) fn evicted_class(f: u8) -> usize {
    ((f >> 2) & 7) as usize
}

/// Which of a swap-out (anon with no swap copy), a swap-cache drop (anon with one), a write-back
/// (dirty file) and a file drop (clean file) evicting a page with flags `f` is.
#[inline(always)]
pub(super) fn eviction(f: u8) -> [bool; 4] {
    let (anon, dirty) = (f & ANON != 0, f & DIRTY != 0);
    let swap_out = f & (ANON | SWAP_VALID) == ANON;
    [swap_out, anon & !swap_out, !anon & dirty, !anon & !dirty]
}

/// A dirty anon page with no swap copy: it cannot leave memory while swap is full.
#[inline(always)]
pub fn pinned(flags: &[u8], p: PageId) -> bool {
    flags[p as usize] & (ANON | SWAP_VALID) == ANON
}

/// The read a fault needs before its page can be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultIo {
    /// First touch of an anon page (zero-fill), or a page promoted from an in-place NVM mapping
    /// (a copy at memory speed, counted as a swap-in).
    None,
    SwapRead,
    /// A swap-in from zram's backing device (the page was written back).
    BackingRead,
    FileRead,
    /// Direct Read mapped the swapped page in place: no frame is taken.
    Mapped,
}

/// The I/O an eviction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvictIo {
    None,
    SwapWrite,
    FileWrite,
}
