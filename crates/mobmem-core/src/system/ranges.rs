//! Page-id ranges of apps. Every page the engine knows costs memory for the whole run (its flags,
//! its owner, the policy's state), so the ids must be bounded by what can be alive at once, not by
//! how many distinct apps a usage trace ever names (20,000 apps of 40 MiB would be 200 M ids).
//!
//! Apps of the same shape (anon and file pages) share a pool of ranges. An app's own range is laid
//! out up front for the first `per_shape` apps of each shape, in app order, exactly as if every app
//! had its own: a usage trace with fewer apps of a shape runs with each app on its own ids. Beyond
//! that, a newly started app takes the range of the app of its shape that died longest ago; that
//! app's cached file pages leave memory with it (they would be other files' pages) and the
//! policy's history of those ids (ghosts, refault distances) carries over, as it does today when
//! an app starts again on its own ids. An app that starts again gets its own range back while no
//! other app has taken it.
//!
//! At most `max_cached` cached apps, the foreground and the previous app, and the apps with
//! background work are alive at once, so `per_shape` at or above that always leaves a free range.

use crate::error::{Error, Result};
use std::collections::{HashMap, VecDeque};

/// Ranges laid out per shape at least: a usage trace with up to this many apps of one shape (and
/// the real logs have 15–36 apps in all) runs exactly as if every app had its own ids.
pub const MIN_PER_SHAPE: u32 = 64;

/// A range of ids: `anon` anon pages from `anon0`, then `file` file pages from `file0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub anon0: u32,
    pub file0: u32,
}

struct Slot {
    range: Range,
    shape: usize,
    /// The app holding it now (alive) or last (dead), if any.
    holder: Option<usize>,
    live: bool,
    /// Whether an app ever ran on it (an untouched range holds no page to drop).
    used: bool,
}

/// What `acquire` did.
pub struct Acquired {
    pub range: Range,
    /// The dead app whose range this was (its file pages must leave memory), if another app's.
    pub taken_from: Option<usize>,
}

pub struct Ranges {
    shape_of: Vec<usize>,
    held: Vec<Option<usize>>,
    slots: Vec<Slot>,
    /// Per shape: slots of dead apps, the longest dead first.
    free: Vec<VecDeque<usize>>,
    /// Per shape: slots laid out for an app that has not started yet.
    unclaimed: Vec<Vec<usize>>,
}

impl Ranges {
    /// Lays out ranges from id `base` on for apps of shapes `(anon, file)` (in app order), where
    /// `bg[i]` says whether app `i` has background work (it is never a cached app).
    /// Returns the ranges and the ids they take, in order: `(app, range)` for each slot.
    pub fn plan(base: u32, shapes: &[(u32, u32)], bg: &[bool], max_cached: u32) -> Result<(Ranges, u64)> {
        let mut index: HashMap<(u32, u32), usize> = HashMap::new();
        let mut count: Vec<u32> = Vec::new();
        let mut bgs: Vec<u32> = Vec::new();
        let shape_of: Vec<usize> = shapes
            .iter()
            .zip(bg)
            .map(|(s, &b)| {
                let n = index.len();
                let k = *index.entry(*s).or_insert(n);
                if k == count.len() {
                    count.push(0);
                    bgs.push(0);
                }
                count[k] += 1;
                bgs[k] += b as u32;
                k
            })
            .collect();
        let per_shape: Vec<u32> = (0..count.len())
            .map(|k| count[k].min(MIN_PER_SHAPE.max(max_cached.saturating_add(2).saturating_add(bgs[k]))))
            .collect();
        let mut laid = vec![0u32; count.len()];
        let mut r = Ranges {
            held: vec![None; shapes.len()],
            slots: Vec::new(),
            free: vec![VecDeque::new(); count.len()],
            unclaimed: vec![Vec::new(); count.len()],
            shape_of,
        };
        let mut next = base as u64;
        for (app, &(anon, file)) in shapes.iter().enumerate() {
            let k = r.shape_of[app];
            if laid[k] == per_shape[k] {
                continue;
            }
            laid[k] += 1;
            let anon0 = next;
            next += anon as u64 + file as u64;
            if next >= 1 << 30 {
                return Err(Error::config("usage", "the apps' pages together are more than mobmem models (2^30)"));
            }
            let range = Range { anon0: anon0 as u32, file0: (anon0 + anon as u64) as u32 };
            r.held[app] = Some(r.slots.len());
            r.unclaimed[k].push(r.slots.len());
            r.slots.push(Slot { range, shape: k, holder: Some(app), live: false, used: false });
        }
        Ok((r, next))
    }

    /// The laid-out ranges in id order with the app each was laid out for.
    pub fn layout(&self) -> impl Iterator<Item = (usize, Range)> + '_ {
        self.slots.iter().map(|s| (s.holder.expect("laid out for an app"), s.range))
    }

    /// The range `app` holds, if any (alive apps always hold one).
    pub fn of(&self, app: usize) -> Option<Range> {
        self.held[app].map(|s| self.slots[s].range)
    }

    /// A range for `app`, which is starting: its own if no other app took it, else a dead app's.
    pub fn acquire(&mut self, app: usize) -> Result<Acquired> {
        let k = self.shape_of[app];
        if let Some(s) = self.held[app] {
            if !self.slots[s].live {
                self.free[k].retain(|&f| f != s);
                self.unclaimed[k].retain(|&f| f != s);
                self.slots[s].live = true;
                self.slots[s].used = true;
            }
            return Ok(Acquired { range: self.slots[s].range, taken_from: None });
        }
        let s = self.free[k].pop_front().or_else(|| self.unclaimed[k].pop()).ok_or_else(|| {
            Error::Invariant(format!("no free page range for app {app}: more apps of its size alive than planned"))
        })?;
        let slot = &mut self.slots[s];
        if let Some(h) = slot.holder.filter(|&h| h != app) {
            self.held[h] = None;
        }
        // Reported only when an app ran there: an untouched range (laid out for an app that has
        // not started) has nothing to drop and is not a reuse.
        let taken_from = slot.holder.filter(|&h| h != app && slot.used);
        slot.holder = Some(app);
        slot.live = true;
        slot.used = true;
        self.held[app] = Some(s);
        Ok(Acquired { range: slot.range, taken_from })
    }

    /// `app` died: its range may go to another app of its shape.
    pub fn release(&mut self, app: usize) {
        if let Some(s) = self.held[app] {
            if self.slots[s].live {
                self.slots[s].live = false;
                self.free[self.slots[s].shape].push_back(s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apps_within_the_plan_keep_their_own_ids_in_app_order() {
        let shapes = [(2, 3), (1, 1), (2, 3)];
        let (mut r, end) = Ranges::plan(10, &shapes, &[false; 3], 16).unwrap();
        assert_eq!(end, 10 + 5 + 2 + 5);
        let got: Vec<_> = r.layout().collect();
        assert_eq!(
            got,
            vec![
                (0, Range { anon0: 10, file0: 12 }),
                (1, Range { anon0: 15, file0: 16 }),
                (2, Range { anon0: 17, file0: 19 })
            ]
        );
        // Dying and starting again: the same range.
        assert_eq!(r.acquire(2).unwrap().range.anon0, 17);
        r.release(2);
        let a = r.acquire(2).unwrap();
        assert_eq!((a.range.anon0, a.taken_from), (17, None));
    }

    #[test]
    fn beyond_the_plan_the_longest_dead_range_of_the_shape_is_taken() {
        // 70 apps of one shape, cap 16: 64 ranges laid out.
        let n = MIN_PER_SHAPE as usize + 6;
        let (mut r, end) = Ranges::plan(0, &vec![(1, 1); n], &vec![false; n], 16).unwrap();
        assert_eq!(end, 2 * MIN_PER_SHAPE as u64);
        for app in 0..MIN_PER_SHAPE as usize {
            r.acquire(app).unwrap();
        }
        assert!(r.of(64).is_none());
        // Nothing is dead: an app past the plan finds no range (the cap makes this impossible).
        assert!(matches!(r.acquire(64), Err(Error::Invariant(_))));
        r.release(5);
        r.release(3);
        let a = r.acquire(64).unwrap();
        assert_eq!((a.range, a.taken_from), (Range { anon0: 10, file0: 11 }, Some(5)));
        assert!(r.of(5).is_none());
        // App 5 starts again: its range is gone, so it takes the next dead one (app 3's).
        let b = r.acquire(5).unwrap();
        assert_eq!(b.taken_from, Some(3));
        // App 3 then finds none free.
        assert!(r.acquire(3).is_err());
    }

    #[test]
    fn the_plan_grows_with_the_cached_cap_and_background_apps() {
        let n = 100;
        let mut bg = vec![false; n];
        bg[..10].iter_mut().for_each(|b| *b = true);
        let (_, end) = Ranges::plan(0, &vec![(1, 0); n], &bg, 60).unwrap();
        assert_eq!(end, 60 + 2 + 10);
    }
}
