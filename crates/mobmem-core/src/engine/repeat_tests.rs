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
    fn on_remove(&mut self, page: PageId) {
        self.0.on_remove(page)
    }
}

/// The meters, or the error (a swap area too small runs out of memory: at the same access both ways).
fn replay<Q: Policy>(t: &Trace, frames: usize, swap_cap: u64) -> std::result::Result<Meters, String> {
    let setup = PolicySetup::new(frames, t.space(), IoCosts::default());
    let policy = Q::new(&setup, Q::Params::default()).map_err(|e| e.to_string())?;
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
