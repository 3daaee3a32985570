//! Merged repeats: with a policy that says a repeated hit changes nothing, `replay` counts such a
//! hit without calling the policy; every meter must be what the same policy gives when it is
//! called on every hit.

use super::*;
use crate::policy::{self, IoCosts, PolicySetup, PolicyVisitor, ReclaimCtx};
use crate::trace::{read_trace, ReadOptions};

/// `P`, called on every hit.
struct EveryHit<P>(P);

impl<P: Policy> Policy for EveryHit<P> {
    type Params = P::Params;
    fn new(s: &PolicySetup, p: P::Params) -> Result<Self> {
        Ok(EveryHit(P::new(s, p)?))
    }
    fn on_hit(&mut self, a: &Access) {
        self.0.on_hit(a)
    }
    fn on_miss(&mut self, a: &Access) {
        self.0.on_miss(a)
    }
    fn needs_room(&self) -> bool {
        self.0.needs_room()
    }
    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        self.0.select_victim(ctx)
    }
    fn on_insert(&mut self, a: &Access) {
        self.0.on_insert(a)
    }
    fn on_insert_unmapped(&mut self, a: &Access) {
        self.0.on_insert_unmapped(a)
    }
    fn on_remove(&mut self, page: PageId) {
        self.0.on_remove(page)
    }
}

/// The meters, or the error (a swap area too small runs out of memory: at the same access both ways).
fn replay<Q: Policy>(t: &Trace, frames: usize, swap_cap: u64) -> std::result::Result<Meters, String> {
    replay_with::<Q>(t, frames, swap_cap, Q::Params::default())
}

fn replay_with<Q: Policy>(
    t: &Trace,
    frames: usize,
    swap_cap: u64,
    p: Q::Params,
) -> std::result::Result<Meters, String> {
    let setup = PolicySetup::new(frames, t.space(), IoCosts::default());
    let policy = Q::new(&setup, p).map_err(|e| e.to_string())?;
    let mut e = Engine::new(policy, t.space(), frames, swap_cap, false);
    e.replay(t).map_err(|e| e.to_string())?;
    Ok(e.into_meters())
}

struct Both<'a> {
    trace: &'a Trace,
    frames: usize,
    swap_cap: u64,
}

impl PolicyVisitor for &Both<'_> {
    /// Whether the policy merges repeats, and the meters with and without.
    type Output = (bool, std::result::Result<Meters, String>, std::result::Result<Meters, String>);
    fn visit<P: Policy>(self, _: &'static str) -> Self::Output {
        let merged = replay::<P>(self.trace, self.frames, self.swap_cap);
        let every = replay::<EveryHit<P>>(self.trace, self.frames, self.swap_cap);
        (P::REPEAT_HIT_IS_NOOP, merged, every)
    }
}

#[test]
fn merged_repeats_leave_every_meter_as_it_was() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    for name in ["sqlite_60k.txt.zst", "lackey_true.txt.zst", "captures/gzip6_150k.txt.zst"] {
        let t = read_trace(&dir.join(name), &ReadOptions::default()).unwrap();
        let repeats = t.accesses.windows(2).filter(|w| w[0] == w[1]).count();
        assert!(repeats > t.len() / 20, "{name}: {repeats} repeats, too few to test merging");
        let mut merging = 0;
        for &p in policy::NAMES {
            for frames in [t.num_pages() / 10, t.num_pages() / 3] {
                for swap_cap in [u64::MAX, t.num_pages() as u64 / 8] {
                    let both = Both { trace: &t, frames: frames.max(1), swap_cap };
                    let (declares, merged, every) = policy::dispatch(p, &both).unwrap();
                    assert_eq!(merged, every, "{name}, {p}, {frames} frames, swap {swap_cap}");
                    merging += declares as usize;
                }
            }
        }
        assert_eq!(merging, 4 * (policy::NAMES.len() - 1), "every policy but opt merges");
    }
}

#[test]
fn merged_repeats_with_a_tlb_leave_every_meter_as_it_was() {
    // linux-2q's TLB (x86's accessed bit): a repeated touch goes through the translation the
    // touch before cached, and changes nothing either.
    use crate::policy::linux_2q::{Linux2q, Params};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    let t = read_trace(&dir.join("sqlite_60k.txt.zst"), &ReadOptions::default()).unwrap();
    for tlb_entries in [1, 8, 64] {
        for frames in [t.num_pages() / 10, t.num_pages() / 3] {
            let p = || Params { tlb_entries, ..Params::default() };
            let merged = replay_with::<Linux2q>(&t, frames, u64::MAX, p());
            let every = replay_with::<EveryHit<Linux2q>>(&t, frames, u64::MAX, p());
            assert_eq!(merged, every, "TLB of {tlb_entries}, {frames} frames");
        }
    }
}

/// The replay loop (hits counted from the faults at the end, the fault path inline) against
/// `access`, called access by access: every meter equal, for every policy, with and without a
/// swap area that fills and Direct Read.
struct ReplayAndAccess<'a> {
    trace: &'a Trace,
    frames: usize,
    swap_cap: u64,
    direct_read: bool,
}

impl PolicyVisitor for &ReplayAndAccess<'_> {
    type Output = (std::result::Result<Meters, String>, std::result::Result<Meters, String>);
    fn visit<P: Policy>(self, _: &'static str) -> Self::Output {
        let t = self.trace;
        let engine = || {
            let setup = PolicySetup::new(self.frames, t.space(), IoCosts::default());
            let policy = P::new(&setup, P::Params::default()).map_err(|e| e.to_string())?;
            Ok::<_, String>(Engine::new(policy, t.space(), self.frames, self.swap_cap, self.direct_read))
        };
        let replayed = engine().and_then(|mut e| {
            e.replay(t).map_err(|e| e.to_string())?;
            Ok(e.into_meters())
        });
        let stepped = engine().and_then(|mut e| {
            for (i, &w) in t.accesses.iter().enumerate() {
                e.access(w >> 2, Op::from_bits(w), i).map_err(|e| e.to_string())?;
            }
            let mut m = e.into_meters();
            m.accesses = t.len() as u64; // the caller's to set
            Ok(m)
        });
        (replayed, stepped)
    }
}

#[test]
fn replay_counts_what_access_by_access_counts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    let t = read_trace(&dir.join("sqlite_60k.txt.zst"), &ReadOptions::default()).unwrap();
    for &p in policy::NAMES {
        for (frames, swap_cap, direct_read) in [
            (t.num_pages() / 10, u64::MAX, false),
            (t.num_pages() / 4, t.num_pages() as u64 / 8, false),
            (t.num_pages() / 10, u64::MAX, true),
        ] {
            let both = ReplayAndAccess { trace: &t, frames, swap_cap, direct_read };
            let (replayed, stepped) = policy::dispatch(p, &both).unwrap();
            let m = replayed.as_ref().map_err(|e| format!("{p}: {e}")).unwrap().clone();
            assert!(m.faults > 0 && m.hits > 0 && m.hits + m.faults == m.accesses, "{p}: {m:?}");
            assert_eq!(replayed, stepped, "{p}, {frames} frames, swap {swap_cap}, direct read {direct_read}");
        }
    }
}
