//! A trace restricted to some of its pages (a spatial sample): the kept pages renumbered densely
//! in id order, their accesses in order, every per-page column and the process table carried over.

use super::Trace;

impl Trace {
    /// The accesses to the pages with `keep[id]` set; `keep` has one entry per page.
    pub fn subset(&self, keep: &[bool]) -> Trace {
        debug_assert_eq!(keep.len(), self.num_pages());
        let mut new_id = vec![u32::MAX; keep.len()];
        let mut kept = Vec::new();
        for (id, &k) in keep.iter().enumerate() {
            if k {
                new_id[id] = kept.len() as u32;
                kept.push(id);
            }
        }
        let mut accesses = Vec::new();
        let mut times = self.times.as_ref().map(|_| Vec::new());
        // Kept accesses before each original position, for the process table's change points.
        let mut positions = Vec::new();
        for (i, &w) in self.accesses.iter().enumerate() {
            let n = new_id[(w >> 2) as usize];
            if n != u32::MAX {
                accesses.push(n << 2 | (w & 3));
                positions.push(i as u64);
                if let (Some(out), Some(all)) = (times.as_mut(), self.times.as_ref()) {
                    out.push(all[i]);
                }
            }
        }
        let procs = self.procs.clone().map(|mut t| {
            for c in &mut t.changes {
                c.at = positions.partition_point(|&p| p < c.at) as u64;
            }
            t
        });
        Trace {
            path: self.path.clone(),
            format: self.format,
            accesses: accesses.into(),
            times,
            page_numbers: kept.iter().map(|&i| self.page_numbers[i]).collect(),
            page_pids: pick(&self.page_pids, &kept),
            page_kinds: pick(&self.page_kinds, &kept),
            page_files: pick(&self.page_files, &kept),
            files: self.files.clone(),
            procs,
            skipped: self.skipped.clone(),
            // A sample is not the file's content.
            digest: None,
        }
    }
}

fn pick<T: Copy>(column: &Option<Vec<T>>, kept: &[usize]) -> Option<Vec<T>> {
    column.as_ref().map(|v| kept.iter().map(|&i| v[i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{pack, Op};

    #[test]
    fn keeps_the_chosen_pages_in_order() {
        let t = Trace {
            accesses: [0, 1, 2, 1, 0, 2].iter().map(|&p| pack(p, if p == 1 { Op::Write } else { Op::Read })).collect(),
            page_numbers: vec![10, 11, 12],
            page_kinds: Some(vec![1, 2, 1]),
            ..Default::default()
        };
        let s = t.subset(&[false, true, true]);
        assert_eq!(s.page_numbers, vec![11, 12]);
        assert_eq!(s.page_kinds, Some(vec![2, 1]));
        let ids: Vec<u32> = s.accesses.iter().map(|w| w >> 2).collect();
        assert_eq!(ids, vec![0, 1, 0, 1]);
        assert_eq!(s.accesses[0] & 3, pack(0, Op::Write) & 3);
    }
}
