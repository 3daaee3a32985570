//! Reclaim under a swap admission or a full swap area: the pages an admission vetoes are parked
//! off the policy's lists (Linux's unevictable list) until their owners' state changes or they
//! are touched; when swap is full the policy is told which pages may not go.

use super::pages::{self, becomes_anon, EvictIo};
use super::{Engine, Shortfall};
use crate::error::Result;
use crate::policy::{Access, Policy, ReclaimCtx};
use crate::swap::{Owners, Scope};
use crate::trace::{Op, PageId};

impl<P: Policy> Engine<P> {
    /// Which process owns each page, and the processes' states as the admission sees them.
    pub fn owners(&self) -> &Owners {
        &self.owners
    }

    /// Whether pages' hotness is read, by the swap admission or by a backend compressing by
    /// class (the caller then keeps `Owners::hotness`).
    pub fn keeps_hotness(&self) -> bool {
        self.admission.reads_hotness() || self.pages.has_pool_classes()
    }

    /// A touch of page `page` outside a launch's marking: a cold page becomes warm (the Ariadne
    /// paper's cold-to-warm move on access). No admission's answer depends on it (those reading
    /// hotness treat warm and cold alike), so nothing parked is unparked.
    #[inline]
    pub fn warm(&mut self, page: PageId) {
        if let Some(h) = self.owners.hotness.get_mut(page as usize) {
            if *h == crate::swap::COLD {
                *h = crate::swap::WARM;
            }
        }
    }

    /// The class page `page`'s zram copy was compressed in (`crate::swap::HOT`…), when swap
    /// compresses by class and the page has a copy there.
    pub fn zram_class(&self, page: PageId) -> Option<u8> {
        self.pages.zram_class(page)
    }

    /// Pages compressed in each class (indexed by `crate::swap::COLD`…) since the last call.
    pub fn take_compressed(&mut self) -> [u64; 3] {
        self.pages.take_compressed()
    }

    /// Changes what the admission sees (processes' states, page owners) at access `index`. The
    /// admission may decide otherwise now, so the parked pages go back to the policy (as pages
    /// just brought in).
    pub fn change_owners(&mut self, index: usize, f: impl FnOnce(&mut Owners)) {
        self.settle_owner_swap_outs();
        f(&mut self.owners);
        let list = std::mem::take(&mut self.parked_list);
        for &v in &list {
            self.unpark(v, index, false);
        }
        self.parked_list = list;
        self.parked_list.clear();
    }

    /// The page-trace loop under an admission that looks at processes (`Scope` other than
    /// `All`): the accesses run as in `replay_words`, with a hit on a parked page (and every
    /// access under `off`, which hides anon pages) through `access`. The driver cuts the trace
    /// where the processes change and calls `change_owners` between the runs. Kept apart from
    /// `replay_words` so that the default admission's hit path does not pay for it.
    pub(super) fn replay_words_admitted(&mut self, words: &[u32], first: usize) -> Result<()> {
        let hits_inline = self.scope == Scope::PerPage;
        for (index, &w) in (first..).zip(words) {
            let (page, op) = (w >> 2, Op::from_bits(w));
            let f = self.pages.flag(page);
            if hits_inline && f & pages::RESIDENT != 0 && !self.parked[page as usize] {
                self.pages.m.hits += 1;
                if op.is_write() {
                    self.pages.write_touch(page as usize);
                }
                self.policy.on_hit(&Access { page, op, index, anon: becomes_anon(f, op) });
                continue;
            }
            // Writeback rounds run before a fault, as in `replay_words`.
            if index as u64 >= self.wb_due_access && !self.would_hit(page, op) {
                self.writeback_due(index);
            }
            self.access(page, op, index)?;
        }
        self.pages.m.accesses += words.len() as u64;
        Ok(())
    }

    /// A parked page back on the policy's lists: `touched` when an access brought it back (the
    /// touch sets its accessed bit), not when the admission may now decide otherwise.
    #[cold]
    pub(super) fn unpark(&mut self, v: PageId, index: usize, touched: bool) {
        if std::mem::take(&mut self.parked[v as usize]) {
            self.parked_n -= 1;
            let a = Access { page: v, op: Op::Read, index, anon: true };
            self.policy.on_miss(&a);
            if touched {
                self.policy.on_insert(&a);
            } else {
                self.policy.on_insert_unmapped(&a);
            }
        }
    }

    /// Takes the pages the last reclaim vetoed off the policy's lists.
    pub(super) fn park_vetoed(&mut self) {
        for i in 0..self.vetoed.len() {
            let v = self.vetoed[i];
            let f = self.pages.flag(v);
            if !self.parked[v as usize] && f & pages::RESIDENT != 0 {
                self.policy.on_remove(v);
                self.parked[v as usize] = true;
                self.parked_n += 1;
                self.parked_list.push(v);
            }
        }
        self.vetoed.clear();
    }

    /// `try_reclaim` when swap is full, or the swap admission may keep pages from it.
    #[inline(never)]
    pub(super) fn try_reclaim_constrained(
        &mut self,
        index: usize,
    ) -> Result<std::result::Result<(EvictIo, bool), Shortfall>> {
        let p = &mut self.pages;
        let full = p.swap_full();
        if full {
            p.m.reclaims_while_swap_full += 1;
        }
        let mut vetoed = 0;
        let closed = self.scope == Scope::PerPage && !full && self.admission.closed(&self.owners);
        p.m.reclaims_swap_closed += closed as u64;
        let victim = if self.scope == Scope::PerPage && !full && !closed {
            let out = std::cell::RefCell::new(std::mem::take(&mut self.vetoed));
            let (flags, admission, owners) = (p.all_flags(), &self.admission, &self.owners);
            let veto = |v: PageId| {
                let no = pages::pinned(flags, v) && !admission.admits(v, owners);
                if no {
                    out.borrow_mut().push(v);
                }
                no
            };
            let victim = self.policy.select_victim(&ReclaimCtx { swap_full: false, unevictable: Some(&veto) });
            self.vetoed = out.into_inner();
            vetoed = self.vetoed.len() as u64;
            self.pages.m.swap_vetoes += vetoed;
            if vetoed > 0 {
                self.park_vetoed();
            }
            victim
        } else if full || closed || self.scope == Scope::None {
            let flags = p.all_flags();
            let pinned = |v: PageId| pages::pinned(flags, v);
            self.policy.select_victim(&ReclaimCtx { swap_full: true, unevictable: Some(&pinned) })
        } else {
            self.policy.select_victim(&ReclaimCtx::ANY)
        };
        match victim {
            Some(v) => self.take(v, index).map(Ok),
            // Parked pages are vetoed pages too.
            None if self.scope == Scope::None || vetoed > 0 || closed || self.parked_n > 0 => {
                Ok(Err(Shortfall::Vetoed))
            }
            None if full => Ok(Err(Shortfall::SwapFull)),
            None => Ok(Err(Shortfall::Nothing)),
        }
    }
}
