//! zram: swapped pages compressed into frames taken from the phone's own DRAM,
//! `compression_ratio` pages per frame; compression and decompression are CPU work of the task
//! that swaps (per-CPU streams), so requests do not queue behind each other.

use super::{Build, SwapBackend, SwapEffects};
use crate::device::{Catalog, Device};
use crate::error::{Error, Result};

pub struct Zram {
    device: Device,
    ratio: f64,
}

impl Zram {
    /// A zram area on `device`, which must give its compression ratio.
    pub(super) fn on(device: Device) -> Result<Zram> {
        let ratio = device.compression_ratio.ok_or_else(|| {
            Error::config(format!("devices.{}.compression_ratio", device.name), "missing: zram needs its ratio")
        })?;
        Ok(Zram { device, ratio })
    }
}

impl SwapBackend for Zram {
    fn device(&self) -> &Device {
        &self.device
    }
    // Its pool in DRAM, its work on the CPU; zram declares itself synchronous
    // (BLK_FEAT_SYNCHRONOUS in zram_drv.c): swap-ins skip the swap cache and free their slot;
    // checked against the kernel by `mobmem kernel-check`.
    fn effects(&self) -> SwapEffects {
        SwapEffects {
            compression_ratio: Some(self.ratio),
            on_cpu: true,
            synchronous_io: true,
            ..SwapEffects::default()
        }
    }
}

impl Build for Zram {
    type Params = crate::params::NoParams;
    fn new(device: Device, _: Self::Params, _: &Catalog) -> Result<Self> {
        Zram::on(device)
    }
}
