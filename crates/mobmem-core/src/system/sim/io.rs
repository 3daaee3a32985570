//! Devices and time: request queues with size-dependent service times (zram on the task's CPU),
//! file readahead, eviction write batches, and the PSI-like stall of the foreground.

use super::{Sim, WINDOW_NS};
use crate::device::Device;
use crate::policy::Policy;
use crate::system::meters::SystemMeters;
use crate::trace::PageId;

/// A device and its queue (two devices with the same name share one queue).
pub(super) struct Dev {
    pub model: Device,
    pub q: usize,
}

/// The run's devices, their queues (when each is next free, ns), and the pages each moved.
pub(super) struct Devices {
    pub swap: Option<Dev>,
    /// Whether swap requests run on the task's CPU (zram) instead of queueing on the device.
    pub swap_on_cpu: bool,
    /// zram writeback's backing device.
    pub backing: Option<Dev>,
    pub file: Dev,
    pub busy: Vec<f64>,
    pub swap_read_pages: u64,
    pub swap_write_pages: u64,
    pub backing_read_pages: u64,
    pub backing_write_pages: u64,
    pub file_read_pages: u64,
    pub file_write_pages: u64,
    /// Of them, file-system metadata (`Phone::fs_meta_write_kib`).
    pub meta_write_pages: u64,
    /// CPU time of an on-CPU swap backend (zram): compressing pages written, decompressing pages
    /// read, ns.
    pub compress_ns: f64,
    pub decompress_ns: f64,
    /// zram compressing by hotness class (`ariadne`): its costs and counts.
    pub classes: Option<super::classes::Classes>,
}

impl Devices {
    pub fn new(swap: Option<Dev>, swap_on_cpu: bool, backing: Option<Dev>, file: Dev, queues: usize) -> Devices {
        Devices {
            swap,
            swap_on_cpu,
            backing,
            file,
            busy: vec![0.0; queues],
            swap_read_pages: 0,
            swap_write_pages: 0,
            backing_read_pages: 0,
            backing_write_pages: 0,
            file_read_pages: 0,
            file_write_pages: 0,
            meta_write_pages: 0,
            compress_ns: 0.0,
            decompress_ns: 0.0,
            classes: None,
        }
    }

    /// Idle queues and no pages moved (launches start on an idle phone).
    pub fn reset(&mut self) {
        self.busy.iter_mut().for_each(|b| *b = 0.0);
        self.swap_read_pages = 0;
        self.swap_write_pages = 0;
        self.backing_read_pages = 0;
        self.backing_write_pages = 0;
        self.file_read_pages = 0;
        self.file_write_pages = 0;
        self.meta_write_pages = 0;
        self.compress_ns = 0.0;
        self.decompress_ns = 0.0;
        if let Some(k) = &mut self.classes {
            k.reset();
        }
    }

    /// Queues a request of `pages` at `t` (requests counted in `m`); returns when it completes.
    pub fn request(&mut self, dev: DevRef, write: bool, pages: u64, t: f64, ps: u64, m: &mut SystemMeters) -> f64 {
        let d = match dev {
            DevRef::Swap => self.swap.as_ref().unwrap_or(&self.file),
            DevRef::Backing => self.backing.as_ref().unwrap_or(&self.file),
            DevRef::File | DevRef::Meta => &self.file,
        };
        let service = if write { d.model.write_time_ns(pages, ps) } else { d.model.read_time_ns(pages, ps) };
        self.serve(dev, write, pages, service, t, m)
    }

    /// Queues a request of `pages` taking `service` ns at `t` (counted in `m`); returns when it
    /// completes.
    pub fn serve(&mut self, dev: DevRef, write: bool, pages: u64, service: f64, t: f64, m: &mut SystemMeters) -> f64 {
        let d = match dev {
            DevRef::Swap => self.swap.as_ref().unwrap_or(&self.file),
            DevRef::Backing => self.backing.as_ref().unwrap_or(&self.file),
            DevRef::File | DevRef::Meta => &self.file,
        };
        let end = if matches!(dev, DevRef::Swap) && self.swap_on_cpu {
            // zram compresses and decompresses on the CPU of the task that swaps (per-CPU
            // streams): a swap-in does not wait behind kswapd's compression.
            if write {
                self.compress_ns += service;
            } else {
                self.decompress_ns += service;
            }
            t + service
        } else {
            let q = d.q;
            let end = t.max(self.busy[q]) + service;
            self.busy[q] = end;
            end
        };
        match (dev, write) {
            (DevRef::Swap, false) => {
                self.swap_read_pages += pages;
                m.swap_read_requests += 1;
            }
            (DevRef::Swap, true) => {
                self.swap_write_pages += pages;
                m.swap_write_requests += 1;
            }
            (DevRef::File, false) => {
                self.file_read_pages += pages;
                m.file_read_requests += 1;
            }
            (DevRef::Backing, false) => {
                self.backing_read_pages += pages;
                m.swap_read_requests += 1;
            }
            (DevRef::Backing, true) => self.backing_write_pages += pages,
            (DevRef::File, true) => self.file_write_pages += pages,
            (DevRef::Meta, _) => self.meta_write_pages += pages,
        }
        end
    }
}

/// Stall time per window, PSI-like: the last full window plus the current one.
#[derive(Default)]
pub(super) struct Stall {
    window: u64,
    cur: f64,
    prev: f64,
    pub total: f64,
}

impl Stall {
    pub fn add(&mut self, t: f64, ns: f64) {
        if ns <= 0.0 {
            return;
        }
        self.roll(t);
        self.cur += ns;
        self.total += ns;
    }
    fn roll(&mut self, t: f64) {
        let w = (t.max(0.0) / WINDOW_NS) as u64;
        if w != self.window {
            self.prev = if w == self.window + 1 { self.cur } else { 0.0 };
            self.cur = 0.0;
            self.window = w;
        }
    }
    pub fn ms_per_s(&mut self, t: f64) -> f64 {
        self.roll(t);
        let span = WINDOW_NS + (t.max(0.0) - self.window as f64 * WINDOW_NS);
        (self.prev + self.cur) / span * 1e3
    }
}

/// Waits a task accumulated (a launch's, or background work's).
#[derive(Default, Clone, Copy)]
pub(super) struct Waits {
    pub file: f64,
    pub swap: f64,
    pub reclaim: f64,
    /// Time of touches served in place from NVM (Direct Read), and their number.
    pub mapped: f64,
    pub file_pages: u64,
    pub swap_pages: u64,
    pub mapped_reads: u64,
}

#[derive(Clone, Copy)]
pub(super) enum DevRef {
    Swap,
    /// zram writeback's backing device.
    Backing,
    File,
    /// The file store, for file-system metadata (counted apart from file pages).
    Meta,
}

impl<P: Policy> Sim<'_, P> {
    pub(super) fn stall_add(&mut self, t: f64, ns: f64) {
        if self.w.in_fg {
            self.w.stall.add(t, ns);
        }
    }

    /// Queues a request; returns when it completes.
    pub(super) fn request(&mut self, dev: DevRef, write: bool, pages: u64, t: f64) -> f64 {
        self.w.io.request(dev, write, pages, t, self.w.phone.page_size, &mut self.w.m)
    }

    /// A file fault on `page` at `t`: one request for the page and the readahead window after it
    /// (the rest of the app's file, at most `file_readahead_kib`). Returns when the page is in.
    pub(super) fn file_read(&mut self, page: PageId, t: f64) -> (f64, u64) {
        let max = (self.w.phone.file_readahead_kib * 1024 / self.w.phone.page_size).max(1) as u32;
        let p = &self.w.procs[self.e.owners().of_page[page as usize] as usize];
        let end = (p.file0 + p.file_n).min(page + max);
        let ahead = self.e.prefetch_file(page + 1..end, self.w.index);
        (self.request(DevRef::File, false, 1 + ahead, t), 1 + ahead)
    }

    /// Queues a launch's file-system metadata writes at `t`. The launch does not wait for them;
    /// later requests to the file store queue behind them, as behind kswapd's writes.
    pub(super) fn meta_write(&mut self, t: f64) {
        let pages = (self.w.phone.fs_meta_write_kib * 1024).div_ceil(self.w.phone.page_size);
        if pages > 0 {
            self.request(DevRef::Meta, true, pages, t);
        }
    }

    /// Queues the writes of an eviction batch; returns when they complete.
    pub(super) fn write_batch(&mut self, swap_w: u64, file_w: u64, t: f64) -> f64 {
        let mut end = t;
        if self.w.io.classes.is_some() {
            // Priced by the classes the pages were compressed in.
            let n = self.e.take_compressed();
            if n.iter().sum::<u64>() != swap_w && self.w.broken.is_none() {
                self.w.broken = Some(format!("{swap_w} pages written to zram, {n:?} compressed by class"));
            }
            if swap_w > 0 {
                end = end.max(self.w.io.compress_classes(n, t, &mut self.w.m));
            }
        } else if swap_w > 0 {
            end = end.max(self.request(DevRef::Swap, true, swap_w, t));
        }
        if file_w > 0 {
            end = end.max(self.request(DevRef::File, true, file_w, t));
        }
        end
    }
}
