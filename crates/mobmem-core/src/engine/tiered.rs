//! The tiered engine: main memory of a DRAM and a PCM tier (the hybrid DRAM+PCM paper). The page
//! semantics (faults, swap, write-back) are the flat engine's (`pages`); on top, the engine keeps
//! each resident page's tier, charges every access to its tier, moves pages between tiers as the
//! policy asks, and attributes all the time an access causes (its memory operation, the page
//! copies and evictions it triggers, the I/O it waits for) to its process's class: critical
//! (oom_score_adj ≤ 0) or not.

use super::pages::{becomes_anon, pinned, EvictIo, FaultIo, Pages, DIRTY, RESIDENT};
use crate::device::TierModel;
use crate::error::{Error, Result};
use crate::meters::{ClassMeters, Meters, TierMeters};
use crate::policy::hybrid::{Entry, Tier, TierAccess, TierPolicy};
use crate::policy::{Access, IoCosts, ReclaimCtx};
use crate::swap::OwnerState;
use crate::trace::{is_critical, Op, PageId, PageSpace};

/// Per-operation costs of the two tiers and the I/O devices.
pub struct Costs {
    /// [tier][0 read, 1 write] ns of one memory operation.
    pub op_ns: [[f64; 2]; 2],
    pub ops_per_page: u64,
    pub io: IoCosts,
}

impl Costs {
    pub fn new(dram: &TierModel, pcm: &TierModel, ops_per_page: u64, io: IoCosts) -> Costs {
        Costs { op_ns: [[dram.read_ns, dram.write_ns], [pcm.read_ns, pcm.write_ns]], ops_per_page, io }
    }
}

/// Criticality of each page's process now; the driver sets it where the trace's processes change
/// (`Memory::processes_changed`).
pub(crate) struct Classes {
    page_proc: Vec<u32>,
    critical: Vec<bool>,
    /// Whether the trace has a process table (else every page counts as critical).
    known: bool,
}

impl Classes {
    /// No process table: every one of `pages` pages counts as critical (reported in the meters).
    pub fn all_critical(pages: usize) -> Classes {
        Classes { page_proc: vec![0; pages], critical: vec![true], known: false }
    }

    /// Each page's process (`of_page`) and the processes at the start (`now`, as the driver's
    /// `Timeline` orders them).
    pub fn of(of_page: Vec<u32>, now: &[OwnerState]) -> Classes {
        Classes { page_proc: of_page, critical: now.iter().map(|s| is_critical(s.adj)).collect(), known: true }
    }

    #[inline(always)]
    fn page(&self, page: PageId) -> bool {
        self.critical[self.page_proc[page as usize] as usize]
    }
}

pub struct Tiered<T> {
    policy: T,
    pages: Pages,
    /// Tier of each resident page (`Tier as u8`).
    tier: Vec<u8>,
    used: [usize; 2],
    cap: [usize; 2],
    classes: Classes,
    costs: Costs,
    tm: TierMeters,
    /// Memory time of all accesses, ns.
    memory_ns: f64,
    /// Time the access being served has caused so far, and of it the storage I/O.
    spent: f64,
    spent_io: f64,
}

impl<T: TierPolicy> Tiered<T> {
    /// Tiers of `dram` and `pcm` frames over `space` (without its future when streamed), each
    /// page's time charged to its process's class (`classes`, as at the trace's start).
    pub fn new(
        policy: T,
        space: PageSpace,
        classes: Classes,
        dram: usize,
        pcm: usize,
        swap_cap: u64,
        costs: Costs,
    ) -> Self {
        let tm = TierMeters { process_table: classes.known, ops_per_page: costs.ops_per_page, ..Default::default() };
        Tiered {
            policy,
            pages: Pages::new(space, swap_cap),
            tier: vec![0; space.pages],
            used: [0, 0],
            cap: [dram, pcm],
            classes,
            costs,
            tm,
            memory_ns: 0.0,
            spent: 0.0,
            spent_io: 0.0,
        }
    }

    #[inline(always)]
    fn counts(&mut self, t: Tier) -> &mut crate::meters::TierCounts {
        match t {
            Tier::Dram => &mut self.tm.dram,
            Tier::Pcm => &mut self.tm.pcm,
        }
    }

    /// One memory operation of the access itself on tier `t`.
    #[inline(always)]
    fn charge_op(&mut self, t: Tier, write: bool) {
        let ns = self.costs.op_ns[t.idx()][write as usize];
        self.spent += ns;
        self.memory_ns += ns;
        let c = self.counts(t);
        if write {
            c.writes += 1;
        } else {
            c.reads += 1;
        }
    }

    /// Time of copying a page: `reads` on the source tier (if any), writes on `to`.
    fn charge_copy(&mut self, from: Option<Tier>, to: Tier) {
        let n = self.costs.ops_per_page as f64;
        let ns = n * (from.map_or(0.0, |f| self.costs.op_ns[f.idx()][0]) + self.costs.op_ns[to.idx()][1]);
        self.spent += ns;
        self.memory_ns += ns;
    }

    fn evict_one(&mut self, want: Tier, index: usize) -> Result<()> {
        let p = &mut self.pages;
        let victim = if p.swap_full() {
            p.m.reclaims_while_swap_full += 1;
            let flags = p.all_flags();
            let pin = |v: PageId| pinned(flags, v);
            self.policy.evict_victim(want, &ReclaimCtx { swap_full: true, unevictable: Some(&pin) })
        } else {
            self.policy.evict_victim(want, &ReclaimCtx::ANY)
        };
        let Some(v) = victim else {
            return Err(self.pages.out_of_memory(index, self.used[0] + self.used[1]));
        };
        let io = self.pages.evict(v, index)?;
        let t = Tier::from_idx(self.tier[v as usize]);
        self.used[t.idx()] -= 1;
        self.counts(t).evictions += 1;
        let ns = match io {
            EvictIo::None => 0.0,
            EvictIo::SwapWrite => self.costs.io.swap_write_ns,
            EvictIo::FileWrite => self.costs.io.file_write_ns,
        };
        self.spent += ns;
        self.spent_io += ns;
        Ok(())
    }

    /// Frees a frame in tier `t`: demoting DRAM's victim while PCM has room, else evicting.
    fn make_room(&mut self, t: Tier, ta: &TierAccess) -> Result<()> {
        while self.used[t.idx()] >= self.cap[t.idx()] {
            if t == Tier::Dram && self.used[1] < self.cap[1] {
                let v = self
                    .policy
                    .demote_victim()
                    .ok_or_else(|| Error::Invariant("DRAM is full but the policy named no page to demote".into()))?;
                if self.pages.flag(v) & RESIDENT == 0 || self.tier[v as usize] != Tier::Dram as u8 {
                    return Err(Error::Invariant(format!("policy demoted page {v}, which is not in DRAM")));
                }
                self.used[0] -= 1;
                self.place_page(v, Tier::Pcm);
                self.tm.demotions += 1;
                self.charge_copy(Some(Tier::Dram), Tier::Pcm);
                self.policy.on_insert(v, Tier::Pcm, Entry::Demoted, ta);
            } else {
                self.evict_one(t, ta.a.index)?;
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn place_page(&mut self, v: PageId, t: Tier) {
        self.tier[v as usize] = t as u8;
        self.used[t.idx()] += 1;
    }

    fn migrate(&mut self, ta: &TierAccess, from: Tier) -> Result<()> {
        let to = from.other();
        if self.cap[to.idx()] == 0 {
            return Err(Error::Invariant(format!("policy migrated page {} into a tier with no frames", ta.a.page)));
        }
        self.used[from.idx()] -= 1;
        self.make_room(to, ta)?;
        self.place_page(ta.a.page, to);
        self.charge_copy(Some(from), to);
        let entry = if to == Tier::Dram {
            self.tm.promotions += 1;
            Entry::Promoted
        } else {
            self.tm.demotions += 1;
            Entry::Demoted
        };
        self.policy.on_insert(ta.a.page, to, entry, ta);
        Ok(())
    }

    fn fault(&mut self, a: &Access, critical: bool) -> Result<()> {
        let io = match self.pages.classify(a, false)?.1 {
            FaultIo::SwapRead | FaultIo::BackingRead => self.costs.io.swap_read_ns,
            FaultIo::FileRead => self.costs.io.file_read_ns,
            FaultIo::None | FaultIo::Mapped => 0.0,
        };
        self.spent += io;
        self.spent_io += io;
        let mut ta = TierAccess { a: *a, critical, dirty: false };
        let mut t = self.policy.place(&ta);
        if self.cap[t.idx()] == 0 {
            t = t.other();
        }
        self.make_room(t, &ta)?;
        if self.policy.needs_room() {
            self.evict_one(t, a.index)?;
        }
        self.pages.admit(a);
        self.place_page(a.page, t);
        self.counts(t).fills += 1;
        self.charge_copy(None, t);
        self.charge_op(t, a.op.is_write());
        ta.dirty = self.pages.flag(a.page) & DIRTY != 0;
        self.policy.on_insert(a.page, t, Entry::New, &ta);
        Ok(())
    }

    /// The processes are `now` (as `Timeline` orders them): each one's class follows its adj.
    pub(super) fn set_classes(&mut self, now: &[OwnerState]) {
        for (c, s) in self.classes.critical.iter_mut().zip(now) {
            *c = is_critical(s.adj);
        }
    }

    /// Replays `words`, accesses `first..` of the trace, with the classes as last set.
    pub fn replay_chunk(&mut self, words: &[u32], first: usize) -> Result<()> {
        for (index, &w) in (first..).zip(words) {
            let op = Op::from_bits(w);
            let page = w >> 2;
            let f = self.pages.flag(page);
            let a = Access { page, op, index, anon: becomes_anon(f, op) };
            let critical = self.classes.page(page);
            self.spent = 0.0;
            self.spent_io = 0.0;
            let hit = f & RESIDENT != 0;
            let mut in_dram = false;
            if hit {
                self.pages.m.hits += 1;
                if op.is_write() {
                    self.pages.write_touch(page as usize);
                }
                let t = Tier::from_idx(self.tier[page as usize]);
                in_dram = t == Tier::Dram;
                self.counts(t).hits += 1;
                let ta = TierAccess { a, critical, dirty: self.pages.flag(page) & DIRTY != 0 };
                // A migrating page moves first; the access is served where it lands.
                let served = if self.policy.on_hit(&ta, t) {
                    self.migrate(&ta, t)?;
                    t.other()
                } else {
                    t
                };
                self.charge_op(served, op.is_write());
            } else {
                self.fault(&a, critical)?;
            }
            let c: &mut ClassMeters = if critical { &mut self.tm.critical } else { &mut self.tm.non_critical };
            c.accesses += 1;
            c.elapsed_ns += self.spent;
            c.io_ns += self.spent_io;
            if hit {
                c.hits += 1;
                c.dram_hits += in_dram as u64;
            } else {
                c.faults += 1;
            }
        }
        self.pages.m.accesses += words.len() as u64;
        Ok(())
    }

    /// The counters, with the memory time; energy is filled in by `finish_energy` once the
    /// simulated time is known.
    pub fn into_meters(self) -> Meters {
        let mut m = self.pages.meters();
        let mut tm = self.tm;
        tm.dram.frames = self.cap[0] as u64;
        tm.pcm.frames = self.cap[1] as u64;
        m.memory_ns = self.memory_ns;
        m.tiers = Some(tm);
        m
    }
}

/// Fills in eq. 1 energy, static energy and PCM wear, once `m.sim_time_ns` is final. Static
/// energy and the PCM write rate are over `up_s`, the time the trace spans (its capture's wall
/// clock: a trace of 24 hours idles most of them), or the simulated time when not given.
pub fn finish_energy(
    m: &mut Meters,
    dram: &TierModel,
    pcm: &TierModel,
    access_bytes: u64,
    page_size: u64,
    up_s: Option<f64>,
) {
    let sim_s = up_s.unwrap_or(m.sim_time_ns * 1e-9);
    let Some(tm) = m.tiers.as_mut() else { return };
    let bits = access_bytes as f64 * 8.0;
    let nj = 1e-9;
    let page_ops = tm.ops_per_page as f64;
    let (d, p) = (&tm.dram, &tm.pcm);
    let e = &mut tm.energy;
    e.w_d_j = d.writes as f64 * bits * dram.write_nj_per_bit * nj;
    e.r_d_j = d.reads as f64 * bits * dram.read_nj_per_bit * nj;
    e.w_p_j = p.writes as f64 * bits * pcm.write_nj_per_bit * nj;
    e.r_p_j = p.reads as f64 * bits * pcm.read_nj_per_bit * nj;
    let page_bits = page_ops * bits;
    e.pm_d_j = tm.demotions as f64 * page_bits * (dram.read_nj_per_bit + pcm.write_nj_per_bit) * nj;
    e.pm_p_j = tm.promotions as f64 * page_bits * (pcm.read_nj_per_bit + dram.write_nj_per_bit) * nj;
    e.np_d_j = d.fills as f64 * page_bits * dram.write_nj_per_bit * nj;
    e.np_p_j = p.fills as f64 * page_bits * pcm.write_nj_per_bit * nj;
    e.eq1_j = e.w_d_j + e.r_d_j + e.w_p_j + e.r_p_j + e.pm_d_j + e.pm_p_j + e.np_d_j + e.np_p_j;
    let gib = |frames: u64| (frames * page_size) as f64 / (1u64 << 30) as f64;
    e.static_dram_j = dram.static_mw_per_gib * 1e-3 * gib(d.frames) * sim_s;
    e.static_pcm_j = pcm.static_mw_per_gib * 1e-3 * gib(p.frames) * sim_s;
    tm.pcm_write_bytes = p.writes * access_bytes + (p.fills + tm.demotions) * page_size;
    tm.pcm_lifetime_years = match pcm.endurance_cycles {
        Some(n) if tm.pcm_write_bytes > 0 && sim_s > 0.0 && p.frames > 0 => {
            let rate = tm.pcm_write_bytes as f64 / sim_s;
            Some(n as f64 * (p.frames * page_size) as f64 / rate / (365.25 * 86400.0))
        }
        _ => None,
    };
}
