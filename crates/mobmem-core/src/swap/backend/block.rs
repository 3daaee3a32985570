//! A block device as swap: flash, NVM (Direct Read may map its pages in place) or a DRAM ramdisk.
//! Requests queue on the device; the area takes no memory.

use super::{Build, SwapBackend, SwapEffects};
use crate::device::{Catalog, Device, DeviceKind};
use crate::error::{Error, Result};

pub struct Block {
    device: Device,
}

impl SwapBackend for Block {
    fn device(&self) -> &Device {
        &self.device
    }
    fn effects(&self) -> SwapEffects {
        SwapEffects::default()
    }
}

impl Build for Block {
    type Params = crate::params::NoParams;
    fn new(device: Device, _: Self::Params, _: &Catalog) -> Result<Self> {
        if device.kind == DeviceKind::Zram {
            return Err(Error::config(
                format!("devices.{}.backend", device.name),
                "a zram device keeps pages in DRAM: its backend is zram or zram-writeback, not block",
            ));
        }
        Ok(Block { device })
    }
}
