//! The engine's conservation invariants, checked by tests and by runs with checks on.

use super::{pages, Engine, ANON};
use crate::policy::Policy;

impl<P: Policy> Engine<P> {
    /// The engine's conservation invariants (tests): its resident, file and swap counts match the
    /// page states, and memory is never over-full.
    pub fn check(&self) -> std::result::Result<(), String> {
        let f = self.pages.all_flags();
        let resident = f.iter().filter(|&&x| x & pages::RESIDENT != 0).count();
        let file = f.iter().filter(|&&x| x & pages::RESIDENT != 0 && x & ANON == 0).count();
        let swapped = f.iter().filter(|&&x| x & pages::SWAP_VALID != 0).count() as u64;
        if file != self.pages.file_resident() {
            return Err(format!("{file} resident file pages, engine counts {}", self.pages.file_resident()));
        }
        if resident != self.resident || self.used() > self.frames {
            return Err(format!(
                "{resident} resident pages, engine counts {} and {} of zram, of {} frames",
                self.resident,
                self.pages.pool_frames(),
                self.frames
            ));
        }
        if swapped != self.pages.swap_used() {
            return Err(format!("{swapped} swapped pages, {} slots used", self.pages.swap_used()));
        }
        let parked = self.parked.iter().filter(|&&p| p).count() as u64;
        let stray = self.parked.iter().zip(f).any(|(&p, &x)| p && x & pages::RESIDENT == 0);
        if parked != self.parked_n || stray {
            return Err(format!("{parked} parked pages (all resident: {}), {} counted", !stray, self.parked_n));
        }
        if let Some(e) = self.pages.check_classes() {
            return Err(e);
        }
        let backed = f.iter().filter(|&&x| x & pages::BACKED != 0).count() as u64;
        let stray = f.iter().any(|&x| x & (pages::BACKED | pages::SWAP_VALID) == pages::BACKED);
        if backed != self.pages.backed() || stray {
            return Err(format!(
                "{backed} written-back pages (each with a slot: {}), {} counted",
                !stray,
                self.pages.backed()
            ));
        }
        Ok(())
    }
}
