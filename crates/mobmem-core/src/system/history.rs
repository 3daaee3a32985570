//! Launch history: each app's launches and reuse distances, counted in other launches in between
//! and in distinct other apps in between (the LRU stack distance), as `UsageTrace::stats` counts
//! them. The swap admission reads it (A2S's LVSP) through `OwnerState::reuse`.

use crate::swap::Reuse;

#[derive(Debug, Clone, Default)]
struct App {
    launches: u32,
    /// Reuse distances seen, and their sums by unit.
    samples: u32,
    sum: [f64; 2],
    /// Index of its last launch.
    last: u64,
}

#[derive(Debug, Clone, Default)]
pub struct History {
    apps: Vec<App>,
    launches: u64,
    /// Apps launched so far, most recent first.
    stack: Vec<u32>,
}

impl History {
    pub fn new(apps: usize) -> Self {
        History { apps: vec![App::default(); apps], launches: 0, stack: Vec::new() }
    }

    /// Distinct other apps launched since `app`'s last launch (its place in the stack).
    fn depth(&self, app: usize) -> Option<usize> {
        self.stack.iter().position(|&a| a as usize == app)
    }

    /// `app` is launched now; returns this launch's reuse distances (other launches, distinct
    /// other apps since its last launch), none for its first.
    pub fn launch(&mut self, app: usize) -> Option<[u64; 2]> {
        let depth = self.depth(app);
        let h = &mut self.apps[app];
        let d = depth.map(|d| [self.launches - h.last - 1, d as u64]);
        if let (Some(dist), Some(pos)) = (d, depth) {
            h.samples += 1;
            h.sum[0] += dist[0] as f64;
            h.sum[1] += dist[1] as f64;
            self.stack.remove(pos);
        }
        h.launches += 1;
        h.last = self.launches;
        self.launches += 1;
        self.stack.insert(0, app as u32);
        d
    }

    /// `app`'s launches and current average reuse distances, as if it were launched now.
    pub fn reuse(&self, app: usize) -> Reuse {
        let h = &self.apps[app];
        let Some(depth) = self.depth(app) else { return Reuse { launches: 0, now: [f64::INFINITY; 2] } };
        let since = [(self.launches - h.last - 1) as f64, depth as f64];
        let n = h.samples;
        let mean = |u: usize| if n > 0 { h.sum[u] / n as f64 } else { 0.0 };
        Reuse { launches: h.launches, now: [0, 1].map(|u| Reuse::current(n, mean(u), since[u])) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_in_launches_and_in_apps() {
        // a b b' c a: b twice in a row is two launches here (the usage reader merges them).
        let mut h = History::new(3);
        let d: Vec<_> = [0, 1, 1, 2, 0].into_iter().map(|app| h.launch(app)).collect();
        // Each launch's own distances: none for a first launch.
        assert_eq!(d, [None, None, Some([0, 0]), None, Some([3, 2])]);
        // a: one distance, 3 launches (b, b, c) or 2 apps (b, c) between; now 0 since.
        let a = h.reuse(0);
        assert_eq!((a.launches, a.now), (2, [3.0 / 2.0, 2.0 / 2.0]));
        // b: one distance of 0, then c and a since: 2 launches, 2 apps.
        assert_eq!(h.reuse(1).now, [(0.0 + 2.0) / 2.0, (0.0 + 2.0) / 2.0]);
        // c: no distance yet, one launch since.
        assert_eq!(h.reuse(2), Reuse { launches: 1, now: [1.0, 1.0] });
    }

    #[test]
    fn an_app_never_launched_is_infinitely_far() {
        let h = History::new(2);
        assert_eq!(h.reuse(1).now, [f64::INFINITY; 2]);
    }

    #[test]
    fn the_papers_example() {
        // Three distances of 4 (launches), then ten other launches: (3 × 4 + 10) / 4 = 5.5.
        let mut h = History::new(6);
        let others = [1, 2, 3, 4];
        for _ in 0..4 {
            h.launch(0);
            for &o in &others {
                h.launch(o);
            }
        }
        for k in 0..6 {
            h.launch(1 + k % 5);
        }
        let r = h.reuse(0);
        assert_eq!((r.launches, r.now[0]), (4, 5.5));
    }
}
