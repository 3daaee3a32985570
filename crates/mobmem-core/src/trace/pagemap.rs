//! The map from `(pid, page number)` to dense id, used only while reading a trace. Open
//! addressing with linear probing over one flat table, and a one-entry cache in front: consecutive
//! accesses to the same page (instruction fetches, mostly) skip the hash entirely.

const EMPTY: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Slot {
    page: u64,
    pid: u32,
    id: u32,
}

pub struct PageMap {
    slots: Vec<Slot>,
    mask: usize,
    len: usize,
    last: Slot,
}

#[inline(always)]
fn hash(page: u64, pid: u32) -> u64 {
    // Fibonacci hashing; the pid is folded into the high half so that equal page numbers of
    // different processes land apart.
    (page ^ ((pid as u64) << 40).rotate_left(7)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl PageMap {
    pub fn new() -> Self {
        let cap = 1 << 12;
        PageMap {
            slots: vec![Slot { page: 0, pid: 0, id: EMPTY }; cap],
            mask: cap - 1,
            len: 0,
            last: Slot { page: 0, pid: 0, id: EMPTY },
        }
    }

    /// The id of `(page, pid)`; when absent, inserts `next` and returns it.
    #[inline]
    pub fn get_or_insert(&mut self, page: u64, pid: u32, next: u32) -> u32 {
        if self.last.id != EMPTY && self.last.page == page && self.last.pid == pid {
            return self.last.id;
        }
        let shift = 64 - self.mask.count_ones();
        let mut i = (hash(page, pid) >> shift) as usize & self.mask;
        loop {
            let s = self.slots[i];
            if s.id == EMPTY {
                break;
            }
            if s.page == page && s.pid == pid {
                self.last = s;
                return s.id;
            }
            i = (i + 1) & self.mask;
        }
        let s = Slot { page, pid, id: next };
        self.slots[i] = s;
        self.last = s;
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
        next
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let cap = old.len() * 2;
        self.slots = vec![Slot { page: 0, pid: 0, id: EMPTY }; cap];
        self.mask = cap - 1;
        let shift = 64 - self.mask.count_ones();
        for s in old.into_iter().filter(|s| s.id != EMPTY) {
            let mut i = (hash(s.page, s.pid) >> shift) as usize & self.mask;
            while self.slots[i].id != EMPTY {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assigns_dense_ids_in_order() {
        let mut m = PageMap::new();
        let mut next = 0;
        let mut ids = Vec::new();
        for (page, pid) in [(5u64, 0u32), (7, 0), (5, 0), (5, 1), (u64::MAX, 0), (7, 0)] {
            let id = m.get_or_insert(page, pid, next);
            if id == next {
                next += 1;
            }
            ids.push(id);
        }
        assert_eq!(ids, vec![0, 1, 0, 2, 3, 1]);
    }

    #[test]
    fn survives_growth() {
        let mut m = PageMap::new();
        for p in 0..100_000u64 {
            assert_eq!(m.get_or_insert(p * 4097, 3, p as u32), p as u32);
        }
        for p in 0..100_000u64 {
            assert_eq!(m.get_or_insert(p * 4097, 3, u32::MAX - 1), p as u32);
        }
    }
}
