//! `linux-2q`: a model of the Linux/Android kernel's classic page reclaim (mm/vmscan.c and
//! mm/workingset.c before the multi-generational LRU): active and inactive lists for anon and for
//! file pages, reclaim from the inactive lists, promotion on the second reference, `swappiness`
//! balancing anon against file scanning, and refault-distance (workingset) activation.
//!
//! What it keeps, per reclaim of one page:
//! 1. Type to scan (`get_scan_count`): `swappiness` 0 scans file only while file pages are on the
//!    LRU; otherwise anon and file are scanned in proportion to what one batch of 32 pages scans of
//!    each list, `(list size >> priority) × fraction / denominator` rounded down at priorities 12,
//!    11, … until the batch has 32 pages (so a list far smaller than the other type's is not
//!    scanned), with
//!    `ap = swappiness·(total+1)/(anon_cost+1)` and `fp = (200−swappiness)·(total+1)/(file_cost+1)`
//!    (the kernel's SCAN_FRACT), spread deterministically by a smooth weighted round robin. A type
//!    with no pages is never chosen; with swap full (or off) file is scanned first (SCAN_FILE).
//! 2. If that type's inactive list is low (`inactive × ratio < active`, `ratio = √(10·GiB)` or 1 under
//!    1 GiB, `inactive_is_low`), pages move from the active tail to the inactive head with their
//!    access bit cleared (not PG_referenced) — except referenced executable file pages, which stay
//!    active (`shrink_active_list`).
//! 3. The inactive tail is scanned (`folio_check_references`): a page whose access bit is set gets
//!    PG_referenced and is kept once (rotated), or activated if PG_referenced was set already (or at
//!    once if it is executable file); a page not referenced is the victim. A page is young from the
//!    fault that mapped it, and keeps PG_referenced when activated and deactivated, as the kernel's
//!    ("all mapped folios start out with page table references from the instantiating fault";
//!    "recently deactivated but used folios are quickly recovered").
//!
//! Costs (`lru_note_cost`): an activation during reclaim adds 1 to its type's cost, a refault that
//! activates adds 32 (SWAP_CLUSTER_MAX); both halve when their sum exceeds a quarter of the LRU.
//! Workingset (`workingset_refault`): a non-resident age counts evictions and activations; a page
//! faulting back within `workingset size` of its eviction enters the active list (anon too, as since
//! Linux 5.9; `workingset_anon = false` restricts it to file pages). New pages enter the inactive
//! list of their type (anon too, as since 5.9).
//!
//! A page no fault mapped — read around a swap fault, read ahead of a file fault, a parked page
//! put back — enters not young (`on_insert_unmapped`): the kernel's are unmapped (swap cache,
//! page cache) or mapped old (arm64's fault-around), so its first scan does not keep them.
//!
//! Refaults deactivate (`prepare_scan_control`, Linux ≥ 5.5): a reclaim that begins after refaults
//! of a type were activated scans that type's active list beside its inactive one, `active /
//! inactive` active pages per inactive page, however long the inactive list is ("when refaults
//! are being observed, it means a new workingset is being established. Deactivate to get rid of
//! any stale active pages quickly"); `refault_deactivation = false` leaves only `inactive_is_low`.
//! A reclaim begins at the first victim after a page was inserted.
//!
//! The accessed bit on x86 (`tlb_entries`, 0 = off): x86 clears it without flushing the page's
//! TLB entry, and the CPU sets it only when a touch walks the page table, so a page touched through
//! a cached translation looks untouched to the next scan (policy/tlb.rs). arm64 flushes the entry
//! when it clears the bit: phones keep 0.
//!
//! Left out: the order within a batch (the kernel isolates 32 pages at a time and works in priority
//! passes; how many pages a fault reclaims is the engine's `reclaim_batch`), watermarks and kswapd
//! (the system level's), cache_trim_mode and
//! file_is_tiny, dirty-page write-out costs (the policy does not see dirtiness), shadow-entry
//! reclaim (mobmem keeps every eviction age), per-cgroup and per-node LRUs.

use super::tlb::Tlb;
use super::{Access, Links, List, Policy, PolicySetup, ReclaimCtx, NIL};
use crate::error::Result;
use crate::trace::{Op, PageId};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// `vm.swappiness`, 0–200: how much anon is scanned relative to file (60 is Linux's default;
    /// Android devices often use 100 or more with zram).
    pub swappiness: u32,
    /// Refault-distance activation (mm/workingset.c).
    pub workingset: bool,
    /// Apply it to anon refaults too (Linux ≥ 5.9).
    pub workingset_anon: bool,
    /// A reclaim that follows refaults of a type deactivates that type's active pages in
    /// proportion to its scan of the inactive list, however long the inactive list is (Linux ≥ 5.5:
    /// "when refaults are being observed, it means a new workingset is being established").
    pub refault_deactivation: bool,
    /// Translations the CPU's TLB caches, as x86's accessed bit sees them (policy/tlb.rs): a page
    /// touched through a cached translation does not set its bit again. 0: every touch sets it,
    /// as on arm64, which flushes the entry when it clears the bit.
    pub tlb_entries: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params { swappiness: 60, workingset: true, workingset_anon: true, refault_deactivation: true, tlb_entries: 0 }
    }
}

const INACTIVE_ANON: usize = 0;
const ACTIVE_ANON: usize = 1;
const INACTIVE_FILE: usize = 2;
const ACTIVE_FILE: usize = 3;
const NONE: u8 = u8::MAX;

/// Page flag bits.
const YOUNG: u8 = 1;
const REFERENCED: u8 = 2;
const EXEC: u8 = 4;

/// Cost added by a refault that activates (SWAP_CLUSTER_MAX pages' worth).
const REFAULT_COST: u64 = 32;
/// A reclaim batch (SWAP_CLUSTER_MAX) and the priority it starts at (DEF_PRIORITY, mm/vmscan.c).
const SWAP_CLUSTER_MAX: u128 = crate::kernel::SWAP_CLUSTER_MAX as u128;
const DEF_PRIORITY: u32 = 12;

pub struct Linux2q {
    links: Links,
    lists: [List; 4],
    on: Vec<u8>,
    flags: Vec<u8>,
    /// Non-resident age at eviction + 1 (0: never evicted).
    evicted_at: Vec<u64>,
    age: u64,
    cost: [u64; 2],
    credit: [i128; 2],
    inactive_ratio: usize,
    p: Params,
    /// Where the page being faulted in goes.
    pending: usize,
    /// Refaults activated, per type (WORKINGSET_ACTIVATE_ANON, _FILE), and their count when the
    /// last reclaim began (the kernel's snapshot at the end of a reclaim: none come during one).
    activations: [u64; 2],
    snapshot: [u64; 2],
    /// Whether this reclaim deactivates each type's active pages (`may_deactivate`), and what is
    /// owed of that: active pages per inactive page scanned, in units of the inactive list's length.
    may_deactivate: [bool; 2],
    deactivation_credit: [usize; 2],
    /// A page was inserted since the last victim: the next victim begins a reclaim.
    new_reclaim: bool,
    tlb: Option<Tlb>,
}

impl Linux2q {
    fn put(&mut self, l: usize, p: PageId) {
        self.links.push_front(&mut self.lists[l], p);
        self.on[p as usize] = l as u8;
    }

    fn take(&mut self, p: PageId) {
        let l = self.on[p as usize];
        if l != NONE {
            self.links.remove(&mut self.lists[l as usize], p);
            self.on[p as usize] = NONE;
        }
    }

    fn note_cost(&mut self, file: bool, c: u64) {
        self.cost[file as usize] += c;
        let lru: usize = self.lists.iter().map(|l| l.len).sum();
        if (self.cost[0] + self.cost[1]) as usize > lru / 4 {
            self.cost[0] /= 2;
            self.cost[1] /= 2;
        }
    }

    fn type_len(&self, file: bool) -> usize {
        let b = 2 * file as usize;
        self.lists[b].len + self.lists[b + 1].len
    }

    /// Which type to reclaim from: true = file.
    fn scan_file(&mut self) -> bool {
        let (anon, file) = (self.type_len(false), self.type_len(true));
        if file == 0 {
            return false;
        }
        if anon == 0 || self.p.swappiness == 0 {
            return true;
        }
        let s = self.p.swappiness as u128;
        let (ac, fc) = (self.cost[0] as u128, self.cost[1] as u128);
        let total = ac + fc;
        let (ac, fc) = (total + ac, total + fc);
        let total = ac + fc;
        let ap = s * (total + 1) / (ac + 1);
        let fp = (200 - s) * (total + 1) / (fc + 1);
        let w = self.scan_weights(ap, fp);
        if w[0] + w[1] == 0 {
            return file > 0;
        }
        // Smooth weighted round robin: deterministic, and the long-run share of each type is its
        // weight's share.
        self.credit[0] += w[0] as i128;
        self.credit[1] += w[1] as i128;
        let pick = (self.credit[1] > self.credit[0]) as usize;
        self.credit[pick] -= (w[0] + w[1]) as i128;
        pick == 1
    }

    /// How many pages of each type one reclaim batch scans (`get_scan_count` at the priorities a
    /// batch goes through): at priority `p` each list gives `(len >> p) × fraction / denominator`
    /// pages, rounded down (SCAN_FRACT), at priority 0 its whole length whatever the fractions
    /// (SCAN_EQUAL, near OOM); the batch starts at DEF_PRIORITY (12) and lowers the priority until
    /// it has SWAP_CLUSTER_MAX (32) pages. A list much smaller than the other type's is not
    /// scanned at all: a few hundred program-text pages beside 24,000 anon pages are never
    /// reclaimed, as the kernel shows (docs/CALIBRATION.md). The kernel stops on pages reclaimed,
    /// mobmem on pages scanned.
    fn scan_weights(&self, ap: u128, fp: u128) -> [u128; 2] {
        let denominator = (ap + fp).max(1);
        // The fractions in 32-bit fixed point give each quotient or one less; a multiplication
        // says which, so the result is the kernel's exact floor with no division per list.
        let num = [ap, fp];
        let fraction = num.map(|n| (n << 32) / denominator);
        let l = &self.lists;
        let lens = [[l[INACTIVE_ANON].len, l[ACTIVE_ANON].len], [l[INACTIVE_FILE].len, l[ACTIVE_FILE].len]];
        let mut w = [0u128; 2];
        for prio in (1..=DEF_PRIORITY).rev() {
            for t in 0..2 {
                for &len in &lens[t] {
                    let x = (len >> prio) as u128;
                    let q = (x * fraction[t]) >> 32;
                    w[t] += q + ((q + 1) * denominator <= x * num[t]) as u128;
                }
            }
            if w[0] + w[1] >= SWAP_CLUSTER_MAX {
                return w;
            }
        }
        for t in 0..2 {
            w[t] += lens[t].iter().sum::<usize>() as u128;
        }
        w
    }

    /// `shrink_active_list`: refills the inactive list of `file`'s type while it is low.
    fn balance(&mut self, file: bool) {
        let (inactive, active) = (2 * file as usize, 2 * file as usize + 1);
        let mut budget = self.lists[active].len;
        while budget > 0 && self.lists[inactive].len * self.inactive_ratio < self.lists[active].len {
            budget -= 1;
            self.deactivate_tail(file);
        }
    }

    /// `shrink_active_list` on the active tail: its access bit is cleared and it goes to the
    /// inactive head, unless it is a referenced executable file page, which stays active.
    fn deactivate_tail(&mut self, file: bool) {
        let (inactive, active) = (2 * file as usize, 2 * file as usize + 1);
        let t = self.lists[active].tail;
        if t == NIL {
            return;
        }
        let f = self.flags[t as usize];
        self.flags[t as usize] &= !YOUNG;
        self.take(t);
        if f & YOUNG != 0 && file && f & EXEC != 0 {
            self.put(active, t);
        } else {
            self.put(inactive, t);
        }
    }

    /// After refaults (`may_deactivate`), the kernel scans the active list beside the inactive
    /// one, each `(len >> priority)` pages: per inactive page scanned, `active / inactive` active
    /// pages are deactivated.
    fn deactivate_in_proportion(&mut self, file: bool) {
        let t = file as usize;
        if !self.may_deactivate[t] {
            return;
        }
        let (inactive, active) = (self.lists[2 * t].len.max(1), self.lists[2 * t + 1].len);
        self.deactivation_credit[t] += active;
        let mut n = self.deactivation_credit[t] / inactive;
        self.deactivation_credit[t] %= inactive;
        while n > 0 {
            n -= 1;
            self.deactivate_tail(file);
        }
    }

    /// Scans the inactive list of one type for a victim.
    fn scan(&mut self, file: bool, ctx: &ReclaimCtx) -> Option<PageId> {
        let (inactive, active) = (2 * file as usize, 2 * file as usize + 1);
        let mut budget = 3 * (self.lists[inactive].len + self.lists[active].len) + 1;
        while budget > 0 {
            budget -= 1;
            self.balance(file);
            self.deactivate_in_proportion(file);
            let mut t = self.lists[inactive].tail;
            if t == NIL {
                // Every active page was a referenced executable one: the next pass finds its bit
                // clear, so deactivate the oldest now.
                t = self.lists[active].tail;
                if t == NIL {
                    return None;
                }
                self.flags[t as usize] &= !(YOUNG | REFERENCED);
                self.take(t);
                self.put(inactive, t);
            }
            let f = self.flags[t as usize];
            if f & YOUNG != 0 {
                self.flags[t as usize] &= !YOUNG;
                self.take(t);
                self.flags[t as usize] |= REFERENCED;
                if f & REFERENCED != 0 || (file && f & EXEC != 0) {
                    self.put(active, t);
                    self.age += 1;
                    self.note_cost(file, 1);
                } else {
                    self.put(inactive, t);
                }
                continue;
            }
            if !ctx.evictable(t) {
                self.flags[t as usize] &= !REFERENCED;
                self.links.move_to_front(&mut self.lists[inactive], t);
                continue;
            }
            self.take(t);
            self.flags[t as usize] &= EXEC;
            self.evicted_at[t as usize] = self.age + 1;
            self.age += 1;
            return Some(t);
        }
        None
    }

    /// Pages on each list: inactive anon, active anon, inactive file, active file.
    pub fn lens(&self) -> [usize; 4] {
        [0, 1, 2, 3].map(|l| self.lists[l].len)
    }

    /// Whether `p` is resident and anon.
    pub fn is_anon(&self, p: PageId) -> bool {
        let l = self.on[p as usize];
        l == INACTIVE_ANON as u8 || l == ACTIVE_ANON as u8
    }
}

impl Policy for Linux2q {
    type Params = Params;

    fn new(s: &PolicySetup, p: Params) -> Result<Self> {
        super::check_swappiness(p.swappiness)?;
        let n = s.num_pages();
        // inactive_is_low: ratio √(10·GiB) of the memory, 1 below 1 GiB (4 KiB pages).
        let gib = ((s.represented_frames() * 4096.0) as u64) >> 30;
        let inactive_ratio = if gib == 0 { 1 } else { ((10 * gib) as f64).sqrt() as usize };
        let tlb = Tlb::new(p.tlb_entries, n)?;
        Ok(Linux2q {
            links: Links::new(n),
            lists: [List::default(); 4],
            on: vec![NONE; n],
            flags: vec![0; n],
            evicted_at: vec![0; n],
            age: 0,
            cost: [0; 2],
            credit: [0; 2],
            inactive_ratio,
            p,
            pending: INACTIVE_FILE,
            activations: [0; 2],
            snapshot: [0; 2],
            may_deactivate: [false; 2],
            deactivation_credit: [0; 2],
            new_reclaim: true,
            tlb,
        })
    }

    // A repeated hit sets the access bits the hit before set.

    const REPEAT_HIT_IS_NOOP: bool = true;

    #[inline(always)]
    fn on_hit(&mut self, a: &Access) {
        let exec = if a.op == Op::Instr { EXEC } else { 0 };
        let young = match &mut self.tlb {
            None => YOUNG,
            Some(t) => YOUNG * t.touch(&mut self.flags, a.page) as u8,
        };
        self.flags[a.page as usize] |= young | exec;
    }

    fn on_miss(&mut self, a: &Access) {
        let file = !a.anon;
        let base = if file { INACTIVE_FILE } else { INACTIVE_ANON };
        self.pending = base;
        let at = self.evicted_at[a.page as usize];
        if at != 0 && self.p.workingset && (file || self.p.workingset_anon) {
            // workingset_refault: activate if it would have stayed had memory been larger by the
            // pages that compete with it.
            let distance = self.age - (at - 1);
            let l = &self.lists;
            let mut ws = l[ACTIVE_FILE].len + l[ACTIVE_ANON].len;
            ws += if file { l[INACTIVE_ANON].len } else { l[INACTIVE_FILE].len };
            if distance <= ws as u64 {
                self.pending = base + 1;
                self.age += 1;
                self.note_cost(file, REFAULT_COST);
            }
        }
    }

    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        if self.new_reclaim {
            // A reclaim begins (prepare_scan_control): refaults activated since the last one
            // allow deactivation whatever the inactive list's length.
            self.new_reclaim = false;
            self.deactivation_credit = [0; 2];
            for t in 0..2 {
                self.may_deactivate[t] = self.p.refault_deactivation && self.activations[t] != self.snapshot[t];
                self.snapshot[t] = self.activations[t];
            }
        }
        // No swap space: file first (get_scan_count's SCAN_FILE); anon only if no file page goes.
        let file = ctx.swap_full() || self.scan_file();
        self.scan(file, ctx).or_else(|| self.scan(!file, ctx))
    }

    fn on_insert(&mut self, a: &Access) {
        self.insert(a, YOUNG);
        if let Some(t) = &mut self.tlb {
            t.fill(&mut self.flags, a.page); // the faulting touch walks the new entry
        }
    }

    /// No fault mapped it: the kernel's swap read-ahead and page-cache read-ahead pages have no
    /// page-table entry, and arm64 maps fault-around pages old; so the first scan does not keep it.
    fn on_insert_unmapped(&mut self, a: &Access) {
        self.insert(a, 0);
    }

    fn on_remove(&mut self, page: PageId) {
        self.take(page);
        self.flags[page as usize] = 0;
        self.evicted_at[page as usize] = 0;
    }
}

impl Linux2q {
    fn insert(&mut self, a: &Access, young: u8) {
        self.flags[a.page as usize] = young | if a.op == Op::Instr { EXEC } else { 0 };
        let l = self.pending;
        self.put(l, a.page);
        // Counted after the reclaim this fault made room with, as the kernel charges a page before
        // workingset_refault activates it.
        self.activations[l / 2] += (l & 1) as u64;
        self.new_reclaim = true;
    }
}

#[cfg(test)]
#[path = "linux_2q_tests.rs"]
mod tests;
