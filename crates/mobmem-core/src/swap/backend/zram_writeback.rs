//! zram with writeback, as Android ships it (`CONFIG_ZRAM_WRITEBACK`, a backing partition on the
//! phone's flash): copies that stayed in zram unread for `idle_s` are written back to the backing
//! device, at most `limit_mib_per_day`; they free their share of the DRAM pool, and a fault on one
//! reads it from flash (queued there). Everything else is zram's.
//!
//! The schedule is Android's `ZramWriteback` job (frameworks/base, services/core/.../
//! ZramWriteback.java): every copy is marked idle once, `mark_idle_s` after boot; the first
//! writeback runs `first_s` after boot and writes back the copies still idle, then marks every
//! copy idle again; the next ones follow every `idle_s` (`ro.zram.periodic_wb_delay_hours`). Left
//! out: the job's wait for the device to be idle (charging, screen off).

use super::zram::Zram;
use super::{Build, SwapBackend, SwapEffects, Writeback};
use crate::device::{Catalog, Device, DeviceKind};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// The backing device (a device name; flash or NVM).
    pub backing: String,
    /// Idle time before writeback, and the rounds' period. Assumed: one hour, Android's
    /// `ro.zram.mark_idle_delay_mins` on Pixel phones (60).
    pub idle_s: f64,
    /// Writeback budget per day (`writeback_limit`), which bounds flash wear. Assumed: 1 GiB.
    pub limit_mib_per_day: f64,
    /// The first round, s after the start; absent: `idle_s` (a round every `idle_s` from the start).
    pub first_s: Option<f64>,
    /// A one-time idle marking before the first round, s after the start; absent: none.
    pub mark_idle_s: Option<f64>,
    /// The backing partition's size, MiB; absent: unbounded.
    pub backing_mib: Option<f64>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            backing: "emmc-inand".into(),
            idle_s: 3600.0,
            limit_mib_per_day: 1024.0,
            first_s: None,
            mark_idle_s: None,
            backing_mib: None,
        }
    }
}

pub struct ZramWriteback {
    zram: Zram,
    wb: Writeback,
}

impl SwapBackend for ZramWriteback {
    fn device(&self) -> &Device {
        self.zram.device()
    }
    // zram's, with writeback, and not synchronous: a read may wait on the backing flash, and
    // zram with a backing device drops the flag (zram_drv.c's `zram_wb_devops` in Android's
    // kernels), so the swap cache and its read-ahead stay, as on a block device.
    fn effects(&self) -> SwapEffects {
        SwapEffects { writeback: Some(self.wb.clone()), synchronous_io: false, ..self.zram.effects() }
    }
}

impl Build for ZramWriteback {
    type Params = Params;
    fn new(device: Device, p: Params, catalog: &Catalog) -> Result<Self> {
        let field = |f: &str| format!("devices.{}.backend_params.{f}", device.name);
        let backing = catalog.get(&p.backing, &field("backing"))?.clone();
        if !matches!(backing.kind, DeviceKind::Flash | DeviceKind::Nvm) {
            return Err(Error::config(
                field("backing"),
                format!("{:?} is {}; writeback goes to a flash or NVM device", p.backing, backing.kind.as_str()),
            ));
        }
        if !(p.idle_s >= 1e-3 && p.idle_s <= 365.0 * 86400.0) {
            return Err(Error::config(field("idle_s"), format!("{} is not between 1 ms and a year", p.idle_s)));
        }
        if !(p.limit_mib_per_day >= 0.0 && p.limit_mib_per_day.is_finite()) {
            return Err(Error::config(
                field("limit_mib_per_day"),
                format!("{} is not a size ≥ 0", p.limit_mib_per_day),
            ));
        }
        let first_s = p.first_s.unwrap_or(p.idle_s);
        for (name, v) in [("first_s", Some(first_s)), ("mark_idle_s", p.mark_idle_s)] {
            if let Some(v) = v {
                if !(0.0..=365.0 * 86400.0).contains(&v) {
                    return Err(Error::config(field(name), format!("{v} is not between 0 and a year")));
                }
            }
        }
        if let Some(m) = p.backing_mib {
            if !(m >= 0.0 && m.is_finite()) {
                return Err(Error::config(field("backing_mib"), format!("{m} is not a size ≥ 0")));
            }
        }
        let wb = Writeback {
            backing,
            idle_s: p.idle_s,
            limit_mib_per_day: p.limit_mib_per_day,
            first_s,
            mark_idle_s: p.mark_idle_s,
            backing_mib: p.backing_mib,
        };
        Ok(ZramWriteback { zram: Zram::on(device)?, wb })
    }
}
