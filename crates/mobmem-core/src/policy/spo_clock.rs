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
//! - "Adjust the size of other regions": the donor is chosen by `donor` (default `value`: the region
//!   whose pages are worth least, by decayed ghost-hit density × the I/O cost of a miss there).
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

/// How the donor region (the one that shrinks when another grows) is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Donor {
    /// Least value per page: decayed ghost hits per shadow slot × the I/O cost of a miss in the
    /// region; ties go to the cheaper region, then the larger.
    Value,
    /// The largest other region.
    Largest,
    /// The region whose misses cost least (static; ties to the larger).
    Cheapest,
    /// The other regions in turn.
    RoundRobin,
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
    /// Faults between two halvings of the ghost-hit counters `donor = "value"` reads; 0 = the
    /// number of frames.
    pub decay_window: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params { write_threshold: 1, cost_ratio: 2.0, split: Split::Both, donor: Donor::Value, decay_window: 0 }
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
    /// Ghost hits, halved every `window` faults (for `Donor::Value`).
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

    fn pick_donor(&mut self, grower: usize) -> Option<usize> {
        let cands = (0..4).filter(|&r| r != grower && self.used[r] && self.size[r] > 0);
        match self.donor {
            Donor::Largest => cands.max_by_key(|&r| (self.size[r], std::cmp::Reverse(r))),
            Donor::Cheapest => cands.min_by(|&a, &b| {
                self.cost[a].total_cmp(&self.cost[b]).then(self.size[b].cmp(&self.size[a])).then(a.cmp(&b))
            }),
            Donor::Value => {
                let value = |r: usize| self.recent[r] / self.shadow_cap(r).max(1) as f64 * self.cost[r];
                cands.min_by(|&a, &b| {
                    value(a)
                        .total_cmp(&value(b))
                        .then(self.cost[a].total_cmp(&self.cost[b]))
                        .then(self.size[b].cmp(&self.size[a]))
                        .then(a.cmp(&b))
                })
            }
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
    // A miss in a read region re-reads the page; evicting from a write region also writes it.
    [c.file_read_ns, c.file_read_ns + c.file_write_ns, c.swap_read_ns, c.swap_read_ns + c.swap_write_ns]
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
            window: if p.decay_window == 0 { s.frames.max(1) as u64 } else { p.decay_window },
            until_decay: if p.decay_window == 0 { s.frames.max(1) as u64 } else { p.decay_window },
            cur: RF,
        })
    }

    #[inline(always)]
    fn on_hit(&mut self, a: &Access) {
        // The hardware sets the page's read or write access bit; nothing else.
        // Branch-free: Op::Write is 2, Read 1, Instr 0, so `op >> 1` is the write side.
        let i = 2 * a.page as usize + ((a.op as usize >> 1) & self.op_mask);
        self.refs[i] = true;
    }

    fn on_miss(&mut self, a: &Access) {
        self.cur = self.region_of(a);
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
        let side = r & 1;
        let p = a.page;
        if self.loc[side][p as usize] == SHADOW + r as u8 {
            // Out of the shadow first, so that shrinking the shadow cannot drop other history.
            self.unlink(side, p);
            self.hits[r] += 1;
            self.recent[r] += 1.0;
            if self.hits[r] >= self.threshold[r] {
                self.hits[r] = 0;
                self.grow(r);
            }
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
mod tests {
    use super::super::clock::Clock;
    use super::super::testutil::{run, run_ops, sim};
    use super::*;
    use crate::trace::Op;
    use proptest::prelude::*;

    const R: Op = Op::Read;
    const W: Op = Op::Write;

    fn params() -> Params {
        Params::default()
    }

    /// real + shadow = capacity for every region; shadows within their capacity; every resident
    /// page linked in some real region and no other page linked in one.
    fn check_invariants(s: &super::super::testutil::Sim<SpoClock>) {
        let p = &s.p;
        assert_eq!(p.size.iter().sum::<usize>(), s.frames, "sizes {:?}", p.size);
        for r in 0..4 {
            assert_eq!(p.size[r] + p.shadow_cap(r), s.frames);
            assert!(p.shadow[r].len <= p.shadow_cap(r), "shadow {r} over capacity");
        }
        for (pg, &res) in s.resident.iter().enumerate() {
            let linked = p.in_real(0, pg as u32) || p.in_real(1, pg as u32);
            assert_eq!(linked, res, "page {pg}: resident {res}, linked {linked}");
        }
    }

    #[test]
    fn algorithm_1_step_by_step() {
        // 4 frames → RF WF RA WA sizes 1 each; shadows 3 each; write threshold 1, read 2.
        let mut s = sim::<SpoClock>(8, 4, params());
        let st =
            |s: &super::super::testutil::Sim<SpoClock>| (s.p.sizes(), s.p.lens(), s.p.shadow_lens(), s.p.hit_counts());
        assert_eq!(s.p.sizes(), [1, 1, 1, 1]);
        // Fill memory: 0 read/file → RF; 1 write/anon → WA; 2 read/anon → RA; 3 read/file → RF (no
        // reclaim: frames are free, RF goes over its target of 1).
        for (pg, op, anon) in [(0, R, false), (1, W, true), (2, R, true), (3, R, false)] {
            s.step(Access { page: pg, op, index: 0, anon });
        }
        assert_eq!(st(&s), ([1, 1, 1, 1], [2, 0, 1, 1], [0; 4], [0; 4]));
        assert_eq!(s.p.region_pages(RF), vec![3, 0]);
        // 4 read/file: memory full, RF over its size → RECLAIM(RF): hand at 0 (bit clear) → 0 goes to
        // RF-S and is freed.
        s.step(Access { page: 4, op: R, index: 0, anon: false });
        assert_eq!(s.evicted, vec![0]);
        assert_eq!(s.p.shadow_pages(RF), vec![0]);
        // 2 is written while resident (RA page, write bit set). 5 read/anon: RA at its size →
        // RECLAIM(RA): 2's read bit is clear, but its write bit is set and it is not in WA, so it
        // moves into WA (bit cleared) and stays resident; RA is empty now but memory is still full
        // → the region furthest over its size is RF (2 for 1) → 3 goes.
        s.step(Access { page: 2, op: W, index: 0, anon: true });
        s.step(Access { page: 5, op: R, index: 0, anon: true });
        assert_eq!(s.evicted, vec![0, 3]);
        assert_eq!(s.p.shadow_pages(RA), vec![2]);
        assert_eq!(s.p.region_pages(WA), vec![2, 1]);
        assert_eq!(s.p.shadow_pages(RF), vec![3, 0]);
        // 0 read/file again: RF (page 4) is at its size → 4 goes. 0 is in RF-S: hit 1 of the read
        // threshold 2, no growth yet.
        s.step(Access { page: 0, op: R, index: 0, anon: false });
        assert_eq!(s.evicted, vec![0, 3, 4]);
        assert_eq!(s.p.hit_counts(), [1, 0, 0, 0]);
        assert_eq!(s.p.shadow_pages(RF), vec![4, 3]);
        // 3 read/file: RF at its size → 0 goes. 3 is in RF-S: hit 2 = threshold → RF grows to 2 (its
        // shadow to 2). Donor by value: only RF has ghost hits; of the others (all worth 0) the
        // cheapest — with unit device costs a read region's miss costs 1, a write region's 2 (the
        // write-back and the re-read) → RA.
        s.step(Access { page: 3, op: R, index: 0, anon: false });
        assert_eq!(s.evicted, vec![0, 3, 4, 0]);
        assert_eq!(st(&s), ([2, 1, 0, 1], [1, 0, 1, 2], [2, 0, 1, 0], [0; 4]));
        assert_eq!(s.p.shadow_pages(RF), vec![0, 4]);
        // 6 write/anon: WA (2 pages, size 1) → its hand: 1 (bits clear) goes to WA-S.
        s.step(Access { page: 6, op: W, index: 0, anon: true });
        assert_eq!(s.evicted, vec![0, 3, 4, 0, 1]);
        assert_eq!(s.p.shadow_pages(WA), vec![1]);
        // 1 written again: WA's hand → 2 goes (its write bit was cleared when it moved in, it has
        // not been read since, and it is in no read region). 1 is in WA-S: the write threshold is
        // 1 → WA grows. Donor by value: RF's decayed ghost hits make it worth more than WF (none);
        // RA has no page to give → WF.
        s.step(Access { page: 1, op: W, index: 0, anon: true });
        assert_eq!(s.evicted, vec![0, 3, 4, 0, 1, 2]);
        assert_eq!(st(&s), ([2, 0, 0, 2], [1, 0, 1, 2], [2, 0, 1, 1], [0; 4]));
        check_invariants(&s);
    }

    #[test]
    fn a_page_in_both_regions_is_freed_only_when_unlinked_from_both() {
        // 2 frames: RF/WF/RA/WA sizes 1,1,0,0 (remainder to the first). Page 0 read/anon → RA,
        // then written (write bit); page 1 read/anon → RA.
        let mut s = sim::<SpoClock>(8, 2, params());
        for (page, op) in [(0, R), (0, W), (1, R)] {
            s.step(Access { page, op, index: 0, anon: true });
        }
        // 2 read/anon: memory full, RA (2 pages, size 0) over → hand at 0: read bit clear, write
        // bit set → linked into WA too; 0 leaves RA but stays resident. Still full and RA still over
        // its size → 1 goes.
        s.step(Access { page: 2, op: R, index: 0, anon: true });
        assert_eq!(s.evicted, vec![1]);
        assert!(s.resident[0]);
        assert!(s.p.in_real(1, 0) && !s.p.in_real(0, 0));
        check_invariants(&s);
        // 3 read/anon: RA is over (1 page, 2, size 0) → 2 goes; 0 stays (in WA).
        s.step(Access { page: 3, op: R, index: 0, anon: true });
        assert_eq!(s.evicted, vec![1, 2]);
        // 4 write/anon: WA (1 page, size 0) is over → 0, in no other region now, is freed.
        s.step(Access { page: 4, op: W, index: 0, anon: true });
        assert_eq!(s.evicted, vec![1, 2, 0]);
        check_invariants(&s);
    }

    #[test]
    fn bad_params_are_errors() {
        let t = super::super::testutil::trace_of(&[0]);
        let setup = PolicySetup { frames: 4, space: t.space(), costs: IoCosts::default() };
        let e = SpoClock::new(&setup, Params { write_threshold: 0, ..params() }).err().unwrap();
        assert!(e.to_string().contains("write_threshold"), "{e}");
        let e = SpoClock::new(&setup, Params { cost_ratio: -1.0, ..params() }).err().unwrap();
        assert!(e.to_string().contains("cost_ratio"), "{e}");
    }

    fn accesses() -> impl Strategy<Value = Vec<(u32, Op, bool)>> {
        prop::collection::vec(
            (0u32..40, 0u8..3).prop_map(|(p, o)| {
                // Pages 0..20 are anon (written sometimes), 20..40 file (read only).
                let anon = p < 20;
                let op = if anon && o == 2 {
                    W
                } else if o == 0 {
                    Op::Instr
                } else {
                    R
                };
                (p, op, anon)
            }),
            1..400,
        )
    }

    proptest! {
        #[test]
        fn split_none_is_clock(acc in accesses(), frames in 1usize..24) {
            let spo = run_ops::<SpoClock>(&acc, frames, Params { split: Split::None, ..params() });
            let clock = run_ops::<Clock>(&acc, frames, Default::default());
            prop_assert_eq!(spo.evicted, clock.evicted);
        }

        #[test]
        fn one_used_region_is_clock(pages in prop::collection::vec(0u32..40, 1..400), frames in 1usize..24) {
            // Only read/file faults: one region of the four is ever used.
            let spo = run::<SpoClock>(&pages, frames, params());
            let clock = run::<Clock>(&pages, frames, Default::default());
            prop_assert_eq!(spo.evicted, clock.evicted);
        }

        #[test]
        fn invariants_hold(acc in accesses(), frames in 1usize..24, donor in 0usize..4, wt in 1u32..4) {
            let donor = [Donor::Value, Donor::Largest, Donor::Cheapest, Donor::RoundRobin][donor];
            let mut s = sim::<SpoClock>(40, frames, Params { donor, write_threshold: wt, ..params() });
            for &(page, op, anon) in &acc {
                s.step(Access { page, op, index: 0, anon });
                check_invariants(&s);
            }
        }
    }
}
