//! SPO-CLOCK (Yoon, Cho & Bahn, Electronics 2022, section 2 and Algorithm 1): page reclamation
//! aware of the Storage type of each partition (file system on flash, swap on NVM), Partition
//! hotness and Operation cost.
//!
//! Memory is split into four real regions by source partition and operation — RF (read/file),
//! WF (write/file), RA (read/anon), WA (write/anon) — each a CLOCK list with its own hand, all
//! starting at the same size. Each has a shadow (ghost) region of recently evicted descriptors,
//! sized so that real + shadow = memory capacity. Pages carry separate read and write reference
//! bits; a hit only sets a bit (no list work). A fault on page `Pg` with operation `Op` from
//! partition `Pt` targets region `Reg`; a hit in `Reg`'s shadow counts towards `Reg`'s threshold,
//! and at the threshold `Reg` grows by one page, its shadow shrinks by one, and a donor region
//! shrinks by one. Read regions' threshold is the write regions' × `cost_ratio` (2 in the paper).
//! A page can be linked in its partition's read and write regions at once; its frame is freed only
//! when it is in neither.
//!
//! Where the paper leaves room, mobmem chooses (docs/POLICIES.md has the reasoning):
//! - Reclaim happens only under memory pressure (no free frame), as a kernel does: region sizes are
//!   targets. The victim comes from `Reg` when `Reg` is at or over its size, otherwise from the
//!   region furthest over its size (which is how a donor's shrink takes effect). One such region
//!   always exists when memory is full, since every resident page is linked in some region.
//! - The opposite-bit transfer of RECLAIM is applied to every page the hand passes, the victim
//!   included (the prose: "during the scanning … if a page not in the write region is found with its
//!   write access bit of 1 … adds that page to the write region"); the pseudo-code checks only pages
//!   whose own bit was set, which would drop a written page's dirty history when its read bit is
//!   clear.
//! - The partition is the page's after the faulting access (DESIGN.md: a write makes an undeclared
//!   page anon), so on traces without declared kinds the WF region stays empty — the paper's own
//!   assumption that "data write" is a write to an anonymous page.
//! - "Adjust the size of other regions": the donor is chosen by `donor` (default `margin`: the
//!   region worth least at the margin — decayed shadow hits on pages it evicted lately × the I/O
//!   cost of a miss there — and only if it is worth less than the grower).
//! - A fault looks its page up in both shadows of its partition (`shadow_lookup = "both"`): a
//!   written page faulted back by a read still counts for the write region whose eviction cost
//!   the swap write. `"target"` is Algorithm 1 read literally.
//! - Shadow entries are per side (read / write); linking a page into a real region drops any shadow
//!   entry it had on that side without counting a hit (hits are counted on faults only, as in
//!   Algorithm 1).
//! - New pages enter with their bits clear, as in mobmem's (and libCacheSim's) CLOCK; with
//!   `split = "none"` SPO-CLOCK is exactly CLOCK (tested).

use super::{Access, IoCosts, Links, List, Policy, PolicySetup, ReclaimCtx, NIL};
use crate::error::{Error, Result};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

/// Which of the paper's two splits are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Split {
    /// Four regions: partition × operation (the paper).
    Both,
    /// File and anon regions, one reference bit (storage-type awareness only).
    Partition,
    /// Read and write regions, partitions merged (operation-cost awareness only).
    Op,
    /// One region, one bit: CLOCK.
    None,
}

/// How the donor region (the one that shrinks when another grows) is chosen. The paper: "the
/// victim region is selected by monitoring the appropriate size of each region evaluated through
/// hits from shadow regions and the I/O cost involved in each region".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Donor {
    /// Least worth at the margin: decayed shadow hits within `margin` of the region's evictions ×
    /// the I/O cost of a miss there. Only a region worth less than the grower donates; if none is,
    /// nothing moves. A region that shrinks evicts pages that come back soon, so its worth rises:
    /// no region is starved by construction.
    Margin,
    /// Least decayed shadow hits × cost, over the whole shadow (the paper's sentence read
    /// literally). Deep hits count as much as shallow ones, so a region whose re-references are
    /// far apart takes frames that would each save little.
    Hits,
    /// Least decayed shadow hits per shadow slot × cost. A shrinking region's shadow grows, so its
    /// worth per slot falls as it shrinks: small regions collapse (kept to show it).
    Value,
    /// Least decayed shadow hits per real frame × cost, the grower included: the region whose
    /// shadow is hit least for its size is the one furthest over its appropriate size, and when
    /// that is the grower itself nothing moves. A shrinking region's hits per frame rise, so it
    /// stops donating. No parameter of its own.
    Density,
    /// The largest other region.
    Largest,
    /// The region whose misses cost least (static; ties to the larger).
    Cheapest,
    /// The other regions in turn.
    RoundRobin,
}

/// Which shadows a fault looks its page up in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShadowLookup {
    /// Both shadows of the page's partition (read and write): a page written, evicted from the
    /// write region and faulted back by a read (read-modify-write) counts for the write region,
    /// whose eviction cost the swap write.
    Both,
    /// Only the target region's shadow (Algorithm 1 read literally): that write region never
    /// learns that its evictions come back.
    Target,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Shadow hits that grow a write region by one page.
    pub write_threshold: u32,
    /// Write/read cost ratio: a read region's threshold is `write_threshold × cost_ratio`
    /// (rounded, at least 1). The paper uses 2.
    pub cost_ratio: f64,
    pub split: Split,
    pub donor: Donor,
    /// Faults between two halvings of the shadow-hit counters the donor rules read; 0 = the
    /// number of frames.
    pub decay_window: u64,
    /// For `donor = "margin"`: a shadow hit is at the margin when its page left the region fewer
    /// than `margin × frames` of the region's evictions before the fault (at least 1).
    pub margin: f64,
    pub shadow_lookup: ShadowLookup,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            write_threshold: 1,
            cost_ratio: 2.0,
            split: Split::Both,
            donor: Donor::Margin,
            decay_window: 0,
            margin: 0.03125,
            shadow_lookup: ShadowLookup::Both,
        }
    }
}

/// Region indices: bit 0 = write side, bit 1 = anon partition.
pub const RF: usize = 0;
pub const WF: usize = 1;
pub const RA: usize = 2;
pub const WA: usize = 3;
pub const REGION_NAMES: [&str; 4] = ["RF", "WF", "RA", "WA"];
/// `loc` value: on no list of that side.
const NONE: u8 = u8::MAX;
/// `loc` values 0..4 are real regions, 4..8 their shadows.
const SHADOW: u8 = 4;

pub struct SpoClock {
    frames: usize,
    /// Per side (0 read, 1 write): prev/next links and which list the page is on.
    links: [Links; 2],
    loc: [Vec<u8>; 2],
    /// Reference bits, two per page: `[2p]` read, `[2p + 1]` write. One byte each, so that a hit is
    /// a plain store (as in CLOCK), not a read-modify-write.
    refs: Vec<bool>,
    real: [List; 4],
    shadow: [List; 4],
    /// Target sizes of the real regions; a shadow's capacity is `frames - size`.
    size: [usize; 4],
    hits: [u32; 4],
    threshold: [u32; 4],
    /// Shadow hits the donor rule counts (for `margin`, those at the margin), halved every
    /// `window` faults.
    recent: [f64; 4],
    /// I/O cost of a miss on a page of each region (ns).
    cost: [f64; 4],
    used: [bool; 4],
    split_part: bool,
    split_op: bool,
    /// 1 when reads and writes have separate regions, else 0 (masks the side on hits).
    op_mask: usize,
    donor: Donor,
    rr: usize,
    window: u64,
    until_decay: u64,
    /// Region of the fault being served.
    cur: usize,
    /// For `donor = "margin"`: evictions from each region so far (wrapping), the same when the
    /// fault being served came (its own reclaim does not make its page look older), each shadow
    /// entry's count when it went in (per side; empty for the other rules), and the margin.
    evictions: [u32; 4],
    at_fault: [u32; 4],
    stamp: [Vec<u32>; 2],
    margin: u32,
    both_sides: bool,
}

impl SpoClock {
    #[inline(always)]
    fn side_of(&self, write: bool) -> usize {
        (self.split_op && write) as usize
    }

    fn region_of(&self, a: &Access) -> usize {
        ((self.split_part && a.anon) as usize) << 1 | self.side_of(a.op.is_write())
    }

    /// Takes `p` off whatever list it is on at `side`.
    fn unlink(&mut self, side: usize, p: PageId) {
        let l = self.loc[side][p as usize];
        if l == NONE {
            return;
        }
        let list = if l < SHADOW { &mut self.real[l as usize] } else { &mut self.shadow[(l - SHADOW) as usize] };
        self.links[side].remove(list, p);
        self.loc[side][p as usize] = NONE;
    }

    fn link_real(&mut self, r: usize, p: PageId) {
        let side = r & 1;
        self.unlink(side, p);
        self.links[side].push_front(&mut self.real[r], p);
        self.loc[side][p as usize] = r as u8;
    }

    fn shadow_cap(&self, r: usize) -> usize {
        self.frames - self.size[r]
    }

    fn trim_shadow(&mut self, r: usize, cap: usize) {
        let side = r & 1;
        while self.shadow[r].len > cap {
            let old = self.links[side].pop_back(&mut self.shadow[r]).expect("non-empty shadow");
            self.loc[side][old as usize] = NONE;
        }
    }

    /// Adds `p` (just unlinked from real region `r`) as the newest entry of `r`'s shadow, dropping
    /// the oldest if the shadow is full.
    fn push_shadow(&mut self, r: usize, p: PageId) {
        let cap = self.shadow_cap(r);
        if cap == 0 {
            return;
        }
        self.trim_shadow(r, cap - 1);
        let side = r & 1;
        if self.donor == Donor::Margin {
            self.evictions[r] = self.evictions[r].wrapping_add(1);
            self.stamp[side][p as usize] = self.evictions[r];
        }
        self.links[side].push_front(&mut self.shadow[r], p);
        self.loc[side][p as usize] = SHADOW + r as u8;
    }

    fn in_real(&self, side: usize, p: PageId) -> bool {
        self.loc[side][p as usize] < SHADOW
    }

    /// RECLAIM of Algorithm 1 on region `r`: runs the hand until a page with `r`'s bit clear comes
    /// up, and unlinks it from `r` (into `r`'s shadow). Returns it, or None if `r` has no page that
    /// may go.
    fn reclaim(&mut self, r: usize, ctx: &ReclaimCtx) -> Option<PageId> {
        let side = r & 1;
        let other = side ^ 1;
        let mut budget = 2 * self.real[r].len + 1;
        while budget > 0 {
            budget -= 1;
            let t = self.real[r].tail;
            if t == NIL {
                return None;
            }
            let (mine, theirs) = (2 * t as usize + side, 2 * t as usize + other);
            if self.split_op && self.refs[theirs] && !self.in_real(other, t) {
                // Referenced by the other operation since it came in: link it to that region too.
                self.refs[theirs] = false;
                self.link_real(r ^ 1, t);
            }
            let last_link = !self.split_op || !self.in_real(other, t);
            if self.refs[mine] || (last_link && !ctx.evictable(t)) {
                self.refs[mine] = false;
                self.links[side].move_to_front(&mut self.real[r], t);
                continue;
            }
            self.links[side].remove(&mut self.real[r], t);
            self.loc[side][t as usize] = NONE;
            self.push_shadow(r, t);
            return Some(t);
        }
        None
    }

    /// The region to reclaim from next, or None if every region is empty.
    fn pick_region(&self) -> Option<usize> {
        let c = self.cur;
        if self.real[c].len > 0 && self.real[c].len >= self.size[c] {
            return Some(c);
        }
        (0..4)
            .filter(|&r| self.real[r].len > 0)
            .max_by_key(|&r| (self.real[r].len as i64 - self.size[r] as i64, std::cmp::Reverse(r)))
    }

    /// What a region's pages are worth to the donor rules that weigh shadow hits.
    fn worth(&self, r: usize) -> f64 {
        match self.donor {
            Donor::Value => self.recent[r] / self.shadow_cap(r).max(1) as f64 * self.cost[r],
            Donor::Density => self.recent[r] / self.size[r].max(1) as f64 * self.cost[r],
            _ => self.recent[r] * self.cost[r],
        }
    }

    fn pick_donor(&mut self, grower: usize) -> Option<usize> {
        let cands = (0..4).filter(|&r| r != grower && self.used[r] && self.size[r] > 0);
        match self.donor {
            Donor::Margin | Donor::Hits | Donor::Value | Donor::Density => {
                // Least worth; ties to the cheaper region, then the larger, then the first.
                let mut best: Option<(usize, f64)> = None;
                for r in cands {
                    let w = self.worth(r);
                    let better = best.map_or(true, |(b, bw)| {
                        w.total_cmp(&bw)
                            .then(self.cost[r].total_cmp(&self.cost[b]))
                            .then(self.size[b].cmp(&self.size[r]))
                            .is_lt()
                    });
                    if better {
                        best = Some((r, w));
                    }
                }
                let (d, w) = best?;
                // The margin and density rules move a page only towards a region worth more.
                (!matches!(self.donor, Donor::Margin | Donor::Density) || w < self.worth(grower)).then_some(d)
            }
            Donor::Largest => cands.max_by_key(|&r| (self.size[r], std::cmp::Reverse(r))),
            Donor::Cheapest => cands.min_by(|&a, &b| {
                self.cost[a].total_cmp(&self.cost[b]).then(self.size[b].cmp(&self.size[a])).then(a.cmp(&b))
            }),
            Donor::RoundRobin => {
                let v: Vec<usize> = cands.collect();
                if v.is_empty() {
                    return None;
                }
                self.rr = self.rr.wrapping_add(1);
                Some(v[self.rr % v.len()])
            }
        }
    }

    /// Grows `r` by one page at a donor's expense (Algorithm 1 at the threshold).
    fn grow(&mut self, r: usize) {
        if let Some(d) = self.pick_donor(r) {
            self.size[r] += 1;
            self.size[d] -= 1;
            let cap = self.shadow_cap(r);
            self.trim_shadow(r, cap);
        }
    }

    /// Algorithm 1's shadow hit: if `p` is in `r`'s shadow, it leaves it, and `r`'s hit count
    /// grows `r` at the threshold.
    fn shadow_hit(&mut self, r: usize, p: PageId) {
        let side = r & 1;
        if self.loc[side][p as usize] == SHADOW + r as u8 {
            // Out of the shadow first, so that shrinking the shadow cannot drop other history.
            self.unlink(side, p);
            self.hits[r] += 1;
            let at_margin = self.donor != Donor::Margin
                || self.at_fault[r].wrapping_sub(self.stamp[side][p as usize]) < self.margin;
            self.recent[r] += f64::from(u8::from(at_margin));
            if self.hits[r] >= self.threshold[r] {
                self.hits[r] = 0;
                self.grow(r);
            }
        }
    }

    /// Target sizes of the real regions (RF, WF, RA, WA).
    pub fn sizes(&self) -> [usize; 4] {
        self.size
    }
    /// Pages linked in each real region.
    pub fn lens(&self) -> [usize; 4] {
        [0, 1, 2, 3].map(|r| self.real[r].len)
    }
    /// Descriptors in each shadow region.
    pub fn shadow_lens(&self) -> [usize; 4] {
        [0, 1, 2, 3].map(|r| self.shadow[r].len)
    }
    /// Shadow hits counted towards each region's next growth.
    pub fn hit_counts(&self) -> [u32; 4] {
        self.hits
    }
    /// Shadow entries of region `r`, newest first.
    pub fn shadow_pages(&self, r: usize) -> Vec<PageId> {
        self.links[r & 1].to_vec(&self.shadow[r])
    }
    /// Pages of real region `r`, from the newest (just behind the hand) to the one under the hand.
    pub fn region_pages(&self, r: usize) -> Vec<PageId> {
        self.links[r & 1].to_vec(&self.real[r])
    }
}

fn region_costs(c: &IoCosts) -> [f64; 4] {
    // A miss in a read region re-reads the page; evicting from a write region also writes it, and
    // so does evicting a clean anon page when there is no swap cache.
    let ra = c.swap_read_ns + c.clean_anon_evict_ns;
    [c.file_read_ns, c.file_read_ns + c.file_write_ns, ra, c.swap_read_ns + c.swap_write_ns]
}

impl Policy for SpoClock {
    type Params = Params;

    fn new(s: &PolicySetup, p: Params) -> Result<Self> {
        if p.write_threshold == 0 {
            return Err(Error::config("params.write_threshold", "must be at least 1"));
        }
        if !(p.cost_ratio.is_finite() && p.cost_ratio > 0.0) {
            return Err(Error::config("params.cost_ratio", format!("must be positive, got {}", p.cost_ratio)));
        }
        if !(p.margin > 0.0 && p.margin <= 1.0) {
            return Err(Error::config("params.margin", format!("must be in (0, 1], got {}", p.margin)));
        }
        let (split_part, split_op) = match p.split {
            Split::Both => (true, true),
            Split::Partition => (true, false),
            Split::Op => (false, true),
            Split::None => (false, false),
        };
        let used = [0, 1, 2, 3].map(|r| (split_op || r & 1 == 0) && (split_part || r & 2 == 0));
        let n_used = used.iter().filter(|&&u| u).count();
        let mut size = [0; 4];
        let mut k = 0;
        for r in 0..4 {
            if used[r] {
                // Equal shares; the remainder goes to the first regions.
                size[r] = s.frames / n_used + usize::from(k < s.frames % n_used);
                k += 1;
            }
        }
        let read_t = ((p.write_threshold as f64 * p.cost_ratio).round() as u32).max(1);
        let n = s.num_pages();
        // Faults between decays: a window set in faults scales with a sample's faults.
        let window = if p.decay_window == 0 { s.frames.max(1) as u64 } else { s.scaled_count(p.decay_window) };
        Ok(SpoClock {
            frames: s.frames,
            links: [Links::new(n), Links::new(n)],
            loc: [vec![NONE; n], vec![NONE; n]],
            refs: vec![false; 2 * n],
            real: [List::default(); 4],
            shadow: [List::default(); 4],
            size,
            hits: [0; 4],
            threshold: [read_t, p.write_threshold, read_t, p.write_threshold],
            recent: [0.0; 4],
            cost: region_costs(&s.costs),
            used,
            split_part,
            split_op,
            op_mask: split_op as usize,
            donor: p.donor,
            rr: 0,
            window,
            until_decay: window,
            cur: RF,
            evictions: [0; 4],
            at_fault: [0; 4],
            stamp: if p.donor == Donor::Margin { [vec![0; n], vec![0; n]] } else { [vec![], vec![]] },
            // Below u32::MAX: a shadow holds fewer entries than frames, so the wrapping count of
            // evictions since an entry went in is exact.
            margin: (s.frames as f64 * p.margin).ceil().clamp(1.0, u32::MAX as f64) as u32,
            both_sides: p.shadow_lookup == ShadowLookup::Both && split_op,
        })
    }

    // A repeated hit sets the read or write bit of the op, which the hit before (same op) set.

    const REPEAT_HIT_IS_NOOP: bool = true;

    #[inline(always)]
    fn on_hit(&mut self, a: &Access) {
        // The hardware sets the page's read or write access bit; nothing else.
        // Branch-free: Op::Write is 2, Read 1, Instr 0, so `op >> 1` is the write side.
        let i = 2 * a.page as usize + ((a.op as usize >> 1) & self.op_mask);
        self.refs[i] = true;
    }

    fn on_miss(&mut self, a: &Access) {
        self.cur = self.region_of(a);
        self.at_fault = self.evictions;
        self.until_decay -= 1;
        if self.until_decay == 0 {
            self.until_decay = self.window;
            for h in &mut self.recent {
                *h *= 0.5;
            }
        }
    }

    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        // Each RECLAIM unlinks one page from one region; the frame is free once the page is in no
        // real region. Every step shortens some list, so this ends.
        loop {
            let r = self.pick_region()?;
            let mut got = self.reclaim(r, ctx);
            // `r` has nothing that may go (swap full): any region that has.
            for o in 0..4 {
                if got.is_some() {
                    break;
                }
                if o != r && self.real[o].len > 0 {
                    got = self.reclaim(o, ctx);
                }
            }
            let got = got?;
            if !self.in_real(0, got) && !self.in_real(1, got) {
                return Some(got);
            }
        }
    }

    fn on_insert(&mut self, a: &Access) {
        let r = self.cur;
        let p = a.page;
        self.shadow_hit(r, p);
        if self.both_sides {
            self.shadow_hit(r ^ 1, p);
        }
        self.refs[2 * p as usize] = false;
        self.refs[2 * p as usize + 1] = false;
        self.link_real(r, p);
    }

    fn on_remove(&mut self, page: PageId) {
        self.unlink(0, page);
        self.unlink(1, page);
        self.refs[2 * page as usize] = false;
        self.refs[2 * page as usize + 1] = false;
    }
}

#[cfg(test)]
#[path = "spo_clock_tests.rs"]
mod tests;
