//! Launch history: each app's launches and reuse distances, counted in other launches in between
//! and in distinct other apps in between (the LRU stack distance), as `UsageTrace::stats` counts
//! them. The swap admission reads it (A2S's LVSP) through `OwnerState::reuse`.
//!
//! Both distances cost O(log launches), whatever the number of distinct apps: each app has one
//! mark, at its last launch, in a Fenwick tree over launch indices, and the distinct apps launched
//! since an app's last launch are the marks after its own.

use super::Reuse;

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
    /// Apps launched at least once.
    seen: u64,
    /// Fenwick tree over launch indices (1-based): 1 at each app's last launch.
    marks: Vec<u32>,
}

impl History {
    pub fn new(apps: usize) -> Self {
        History { apps: vec![App::default(); apps], launches: 0, seen: 0, marks: vec![0; 1 + 64] }
    }

    fn add(&mut self, index: u64, v: i32) {
        let mut i = index as usize + 1;
        while i < self.marks.len() {
            self.marks[i] = self.marks[i].wrapping_add_signed(v);
            i += i & i.wrapping_neg();
        }
    }

    /// Marks at launch indices ≤ `index`.
    fn upto(&self, index: u64) -> u64 {
        let mut i = (index as usize + 1).min(self.marks.len() - 1);
        let mut s = 0u64;
        while i > 0 {
            s += self.marks[i] as u64;
            i &= i - 1;
        }
        s
    }

    /// Room for launch index `self.launches`: the tree doubles, rebuilt from the apps' marks.
    fn grow(&mut self) {
        if (self.launches as usize + 1) < self.marks.len() {
            return;
        }
        let n = (self.marks.len() - 1) * 2;
        let mut t = vec![0u32; n + 1];
        for a in self.apps.iter().filter(|a| a.launches > 0) {
            t[a.last as usize + 1] += 1;
        }
        for i in 1..=n {
            let j = i + (i & i.wrapping_neg());
            if j <= n {
                t[j] += t[i];
            }
        }
        self.marks = t;
    }

    /// Distinct other apps launched since `app`'s last launch (its place in the LRU stack).
    fn depth(&self, app: usize) -> Option<u64> {
        let h = &self.apps[app];
        (h.launches > 0).then(|| self.seen - self.upto(h.last))
    }

    /// `app` is launched now; returns this launch's reuse distances (other launches, distinct
    /// other apps since its last launch), none for its first.
    pub fn launch(&mut self, app: usize) -> Option<[u64; 2]> {
        self.grow();
        let depth = self.depth(app);
        let now = self.launches;
        let last = self.apps[app].last;
        let d = depth.map(|d| [now - last - 1, d]);
        if let Some(dist) = d {
            let h = &mut self.apps[app];
            h.samples += 1;
            h.sum[0] += dist[0] as f64;
            h.sum[1] += dist[1] as f64;
            self.add(last, -1);
        } else {
            self.seen += 1;
        }
        self.add(now, 1);
        let h = &mut self.apps[app];
        h.launches += 1;
        h.last = now;
        self.launches += 1;
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

    /// The distances as a plain LRU stack counts them (the model the Fenwick tree replaces).
    fn naive(seq: &[usize]) -> Vec<Option<[u64; 2]>> {
        let mut stack: Vec<usize> = Vec::new();
        let mut last = std::collections::HashMap::new();
        seq.iter()
            .enumerate()
            .map(|(i, &a)| {
                let d = stack.iter().position(|&x| x == a).map(|pos| [(i - last[&a] - 1) as u64, pos as u64]);
                if let Some(pos) = stack.iter().position(|&x| x == a) {
                    stack.remove(pos);
                }
                stack.insert(0, a);
                last.insert(a, i);
                d
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn distances_equal_a_plain_lru_stacks(seq in proptest::collection::vec(0usize..40, 0..400)) {
            let mut h = History::new(40);
            let got: Vec<_> = seq.iter().map(|&a| h.launch(a)).collect();
            proptest::prop_assert_eq!(got, naive(&seq));
            for a in 0..40 {
                let r = h.reuse(a);
                let n = seq.iter().filter(|&&x| x == a).count() as u32;
                proptest::prop_assert_eq!(r.launches, n);
            }
        }
    }
}
