//! Intrusive doubly linked lists over dense page ids. One `Links` arena holds the prev/next of every
//! page; several `List`s (LRU queue, ghost queue, …) share it, since a page is on at most one list
//! of a policy at a time. No allocation after construction, no hashing.

pub const NIL: u32 = u32::MAX;

/// Each page's `[prev, next]` side by side: a list operation on a page touches one cache line, not
/// two (a fault unlinks one page and links another, so this halves the lines a fault touches).
pub struct Links {
    node: Vec<[u32; 2]>,
}
const PREV: usize = 0;
const NEXT: usize = 1;

/// A list: head is the most recently inserted end (MRU), tail the oldest (LRU).
#[derive(Debug, Clone, Copy)]
pub struct List {
    pub head: u32,
    pub tail: u32,
    pub len: usize,
}

impl Default for List {
    fn default() -> Self {
        List { head: NIL, tail: NIL, len: 0 }
    }
}

impl Links {
    pub fn new(n: usize) -> Self {
        Links { node: vec![[NIL; 2]; n] }
    }

    #[inline(always)]
    pub fn push_front(&mut self, l: &mut List, x: u32) {
        self.node[x as usize] = [NIL, l.head];
        if l.head != NIL {
            self.node[l.head as usize][PREV] = x;
        } else {
            l.tail = x;
        }
        l.head = x;
        l.len += 1;
    }

    #[inline(always)]
    pub fn remove(&mut self, l: &mut List, x: u32) {
        let [p, n] = self.node[x as usize];
        if p != NIL {
            self.node[p as usize][NEXT] = n;
        } else {
            l.head = n;
        }
        if n != NIL {
            self.node[n as usize][PREV] = p;
        } else {
            l.tail = p;
        }
        l.len -= 1;
    }

    #[inline(always)]
    pub fn move_to_front(&mut self, l: &mut List, x: u32) {
        if l.head != x {
            self.remove(l, x);
            self.push_front(l, x);
        }
    }

    /// Removes and returns the tail.
    #[inline(always)]
    pub fn pop_back(&mut self, l: &mut List) -> Option<u32> {
        let t = l.tail;
        if t == NIL {
            return None;
        }
        self.remove(l, t);
        Some(t)
    }

    /// The element before `x` (towards the head).
    #[inline(always)]
    pub fn prev(&self, x: u32) -> u32 {
        self.node[x as usize][PREV]
    }

    /// The page nearest the tail for which `ok` holds.
    #[inline]
    pub fn last_where(&self, l: &List, ok: impl Fn(u32) -> bool) -> Option<u32> {
        let mut x = l.tail;
        while x != NIL {
            if ok(x) {
                return Some(x);
            }
            x = self.node[x as usize][PREV];
        }
        None
    }

    /// Elements from head to tail (tests and debugging).
    pub fn to_vec(&self, l: &List) -> Vec<u32> {
        let mut v = Vec::with_capacity(l.len);
        let mut x = l.head;
        while x != NIL {
            v.push(x);
            x = self.node[x as usize][NEXT];
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_operations() {
        let mut k = Links::new(5);
        let mut l = List::default();
        for x in 0..4 {
            k.push_front(&mut l, x);
        }
        assert_eq!(k.to_vec(&l), vec![3, 2, 1, 0]);
        k.move_to_front(&mut l, 1);
        assert_eq!(k.to_vec(&l), vec![1, 3, 2, 0]);
        assert_eq!(k.pop_back(&mut l), Some(0));
        k.remove(&mut l, 3);
        assert_eq!(k.to_vec(&l), vec![1, 2]);
        assert_eq!(l.len, 2);
        assert_eq!(k.last_where(&l, |x| x != 2), Some(1));
    }
}
