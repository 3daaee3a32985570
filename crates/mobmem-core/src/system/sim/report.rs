//! The report: meters finished (means, device pages, flash bytes and wear, energy), the config
//! echo, and the conservation checks run after every launch in tests.

use super::{PhoneRun, Sim};
use crate::device::{Device, DeviceKind};
use crate::error::{Error, Result};
use crate::policy::Policy;
use crate::system::cpu::{CpuTime, KernelEvents};
use crate::system::meters::{LifetimeSummary, PhoneResult, ResolvedPhone, SystemEnergy};

impl<P: Policy> Sim<'_, P> {
    /// The conservation invariants (tests): resident and swap counts match the page states, free
    /// memory is never negative, dead processes hold nothing, swap is never used with swap off.
    pub(super) fn check(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::Invariant(msg));
        if let Some(b) = &self.w.broken {
            return bad(b.clone());
        }
        self.e.check().or_else(bad)?;
        let v = self.e.view();
        if v.swap_used > self.w.layout.swap_pages {
            return bad(format!("{} slots used of {}", v.swap_used, self.w.layout.swap_pages));
        }
        for p in &self.w.procs {
            let held = self.held(p);
            if !p.alive && held > 0 {
                return bad(format!("dead process {} holds {held} pages", p.name));
            }
            if !p.ranged {
                continue;
            }
            if self.e.holds(p.anon0 + p.anon_alloc..p.anon0 + p.anon_n).either > 0 {
                return bad(format!("process {} holds anon pages it never allocated", p.name));
            }
        }
        Ok(())
    }

    pub(super) fn finish(mut self, r: &PhoneRun, wall: f64) -> Result<PhoneResult> {
        if let Some(b) = &self.w.broken {
            // A count that did not add up (with checks or without): no result is better than a wrong one.
            return Err(Error::Invariant(b.clone()));
        }
        let layout = self.w.layout;
        let ps = self.w.phone.page_size;
        let first_app = self.w.procs.len() - self.w.profiles.len();
        let outs = self.e.owner_swap_outs().to_vec();
        let m = &mut self.w.m;
        let n = m.launches.max(1) as f64;
        m.live_apps_mean /= n;
        m.mean_launch_ms = m.total_launch_ms / n;
        let mean = |v: Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        m.mean_cold_ms = mean(self.w.launches.iter().filter(|l| l.cold).map(|l| l.latency_ms).collect());
        m.mean_resume_ms = mean(self.w.launches.iter().filter(|l| !l.cold).map(|l| l.latency_ms).collect());
        // The engine counts since boot, when no app runs: every app's swap-outs are the run's.
        let (system, apps) = outs.split_at(first_app.min(outs.len()));
        m.system_swap_outs = system.iter().sum();
        for (i, a) in m.apps.iter_mut().enumerate() {
            a.swap_outs = apps.get(i).copied().unwrap_or(0);
            let l = a.launches.max(1) as f64;
            a.mean_latency_ms /= l;
            a.mean_cold_ms = a.mean_cold_ms.map(|v| v / a.cold.max(1) as f64);
            a.mean_resume_ms = a.mean_resume_ms.map(|v| v / a.resumed.max(1) as f64);
        }
        for c in crate::system::phone::UX_CLASSES {
            m.ux.entry(c.to_string()).or_insert(0);
        }
        m.swap_in_pages = self.w.io.swap_read_pages + self.w.io.backing_read_pages;
        m.swap_out_pages = self.w.io.swap_write_pages;
        if let Some(k) = &self.w.io.classes {
            k.report(m);
        }
        m.written_back_pages = self.w.io.backing_write_pages;
        m.backing_read_pages = self.w.io.backing_read_pages;
        m.file_read_pages = self.w.io.file_read_pages;
        m.write_back_pages = self.w.io.file_write_pages;
        m.fs_meta_write_pages = self.w.io.meta_write_pages;
        m.stall_ms = self.w.stall.total * 1e-6;
        let swap_flash = self.w.io.swap.as_ref().is_some_and(|d| d.model.kind == DeviceKind::Flash);
        let file_flash = self.w.io.file.model.kind == DeviceKind::Flash;
        if swap_flash {
            m.flash_swap_write_bytes = m.swap_out_pages * ps;
            m.flash_write_bytes += m.swap_out_pages * ps;
            m.flash_read_bytes += m.swap_in_pages * ps;
        }
        if file_flash {
            m.flash_write_bytes += (m.write_back_pages + m.fs_meta_write_pages) * ps;
            m.flash_read_bytes += m.file_read_pages * ps;
        }
        // zram writeback: the backing device's writes are swap writes to flash.
        let backing_flash = self.w.io.backing.as_ref().is_some_and(|d| d.model.kind == DeviceKind::Flash);
        if backing_flash {
            m.flash_swap_write_bytes += m.written_back_pages * ps;
            m.flash_write_bytes += m.written_back_pages * ps;
            m.flash_read_bytes += m.backing_read_pages * ps;
        }
        // Wear: the file store's flash if it is flash, else the swap device's.
        let flash = if file_flash {
            Some(&self.w.io.file.model)
        } else if backing_flash {
            self.w.io.backing.as_ref().map(|d| &d.model)
        } else {
            self.w.io.swap.as_ref().map(|d| &d.model).filter(|_| swap_flash)
        };
        if let Some(d) = flash {
            if let (Some(cap), Some(endurance)) = (d.capacity_bytes, d.endurance_cycles) {
                let written = m.flash_write_bytes as f64 * self.w.phone.write_amplification;
                m.pe_cycles_used = Some(written / cap as f64);
                let per_s = written / m.sim_time_s.max(1e-9);
                m.flash_lifetime_years =
                    (per_s > 0.0).then(|| endurance as f64 * cap as f64 / per_s / (365.25 * 86400.0));
            }
        }
        let dev_j = |d: &Device, r: u64, w: u64| d.io_j(r, w, ps);
        let dram_gib = (layout.dram_pages * ps) as f64 / (1u64 << 30) as f64;
        m.energy = SystemEnergy {
            dram_background_j: self.w.phone.dram_mw_per_gib * 1e-3 * dram_gib * m.sim_time_s,
            swap_device_j: self
                .w
                .io
                .swap
                .as_ref()
                .map(|d| dev_j(&d.model, m.swap_in_pages - m.backing_read_pages, m.swap_out_pages))
                .unwrap_or(0.0)
                + self
                    .w
                    .io
                    .backing
                    .as_ref()
                    .map(|d| dev_j(&d.model, m.backing_read_pages, m.written_back_pages))
                    .unwrap_or(0.0),
            storage_device_j: dev_j(
                &self.w.io.file.model,
                m.file_read_pages,
                m.write_back_pages + m.fs_meta_write_pages,
            ),
            launch_j: self.w.phone.active_mw * 1e-3 * m.total_launch_ms * 1e-3,
            total_j: 0.0,
        };
        let e = &mut m.energy;
        e.total_j = e.dram_background_j + e.swap_device_j + e.storage_device_j + e.launch_j;
        m.defaulted_apps = m.apps.iter().filter(|a| !a.known).count() as u64;
        let pm = self.e.meters();
        let events = KernelEvents {
            swap_outs: pm.swap_outs,
            swap_ins: pm.swap_ins + pm.swap_readahead,
            reclaimed: pm.evictions(),
            faults: pm.cold_anon + pm.cold_file + pm.file_rereads,
            kills: m.kills_total,
            compress_s: self.w.io.compress_ns * 1e-9,
            decompress_s: self.w.io.decompress_ns * 1e-9,
        };
        let user_s = self.w.launches.iter().map(|l| l.cpu_ms).sum::<f64>() * 1e-3;
        m.cpu = CpuTime::new(user_s, &self.w.phone.kernel, &events);
        if let Some(l) = self.e.lifetimes() {
            m.swap_lifetimes = LifetimeSummary::new(l.ended, l.died, l.valid);
        }
        m.page_ids = self.e.owners().of_page.len() as u64;
        let mut pages = self.e.meters();
        pages.accesses = self.w.index as u64;
        pages.file_reads = pages.cold_file + pages.file_rereads;
        let phone = self.w.phone.clone();
        Ok(PhoneResult {
            config: ResolvedPhone {
                name: r.phone_name.to_string(),
                layout,
                swap: self.w.io.swap.map(|d| d.model),
                storage: self.w.io.file.model,
                policy_params: self.w.echoed.policy_params,
                killer_params: self.w.echoed.killer_params,
                swap_admission_params: self.w.echoed.swap_admission_params,
                killer_levels: self.w.killer.levels(),
                seed: r.seed,
                ux_classes: crate::system::phone::UX_CLASSES,
                phone,
            },
            usage: r.usage.stats(),
            usage_path: r.usage.path.display().to_string(),
            usage_sha256: r.usage.digest.clone(),
            meters: self.w.m,
            pages,
            launches: self.w.launches,
            wall_time_s: wall,
        })
    }
}
