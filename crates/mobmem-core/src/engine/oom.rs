//! The kernel's OOM killer on page traces with processes (`Setup::oom_kill`): when nothing can be
//! reclaimed for a fault, a process's pages leave memory instead of the run failing.

use super::pages;
use super::Engine;
use crate::policy::Policy;
use crate::swap::SHARED;
use crate::trace::PageId;

impl<P: Policy> Engine<P> {
    /// Kills processes when nothing can be reclaimed (see `oom_kill`).
    pub(crate) fn with_oom_kill(mut self) -> Self {
        self.oom_kill = true;
        self
    }

    /// The kernel's OOM killer for a fault on `page` that nothing could be reclaimed for: the
    /// process with the highest adj above 0 (never the foreground or a system process, nor an
    /// owner of `page`) that holds pages in memory or in swap, the one holding most among equals
    /// (Linux's `oom_badness` counts resident pages and swap entries alike: a process whose pages
    /// are all in zram holds frames of the pool). Its pages leave memory and swap with no I/O and
    /// come back new when the trace touches them again (the process starts over). Returns whether
    /// it killed one.
    #[cold]
    #[inline(never)]
    pub(super) fn oom_kill(&mut self, page: PageId) -> bool {
        let owners = &self.owners;
        let mut held = vec![0u64; owners.procs.len()];
        for (p, &f) in self.pages.all_flags().iter().enumerate() {
            if f & (pages::RESIDENT | pages::SWAP_VALID) != 0 {
                if let Some(&o) = owners.of_page.get(p).filter(|&&o| o & SHARED == 0) {
                    held[o as usize] += 1;
                }
            }
        }
        let spared = owners.owners_of(page);
        let victim = (0..owners.procs.len())
            .filter(|&i| owners.procs[i].adj > 0 && held[i] > 0 && !spared.contains(&(i as u32)))
            .max_by_key(|&i| (owners.procs[i].adj, held[i], std::cmp::Reverse(i)));
        let Some(victim) = victim else { return false };
        let mut freed = 0;
        for p in 0..self.pages.len() {
            let f = self.pages.all_flags()[p];
            if self.owners.of_page[p] == victim as u32 && f & (pages::RESIDENT | pages::SWAP_VALID) != 0 {
                self.release(p as PageId, f & (pages::ANON | pages::FILE_FIXED));
                freed += 1;
            }
        }
        self.pages.m.oom_kills += 1;
        self.pages.m.oom_kill_pages += freed;
        true
    }
}
