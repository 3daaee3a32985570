//! The device catalog: the presets (`presets.toml`, compiled in) and the devices, energy models and
//! memory tiers of user files.

use super::spec::DeviceSpec;
use super::{tier, Device, TierModel};
use crate::energy::EnergyModel;
use crate::error::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A devices file: device tables, and optionally energy models under `energy_models` and memory
/// tiers under `tiers`.
/// (A hand-written map visitor rather than `serde(flatten)`, which would lose error positions.)
#[derive(Debug, Clone, Default)]
pub struct DeviceFile {
    energy_models: BTreeMap<String, EnergyModel>,
    tiers: BTreeMap<String, tier::TierSpec>,
    devices: BTreeMap<String, DeviceSpec>,
}

impl<'de> Deserialize<'de> for DeviceFile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = DeviceFile;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("device tables and an optional energy_models table")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<DeviceFile, A::Error> {
                let mut out = DeviceFile::default();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "energy_models" {
                        out.energy_models = map.next_value()?;
                    } else if key == "tiers" {
                        out.tiers = map.next_value()?;
                    } else {
                        let spec = map.next_value()?;
                        out.devices.insert(key, spec);
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// The devices and energy models a run can name: built-in presets plus any loaded from files.
#[derive(Debug, Clone)]
pub struct Catalog {
    devices: BTreeMap<String, Device>,
    /// Each device's table as written (the presets' and the files'), for a later file that
    /// names the device to override fields of.
    written: BTreeMap<String, toml::Table>,
    models: BTreeMap<String, EnergyModel>,
    tiers: BTreeMap<String, TierModel>,
}

/// The built-in device and tier presets as written (a devices file naming a preset overrides the
/// fields it sets; a run file's `[devices]` table, typed as it is read, gives a device whole).
pub const PRESETS: &str = include_str!("presets.toml");

impl Catalog {
    /// The built-in presets.
    pub fn builtin() -> Catalog {
        let mut c = Catalog {
            devices: BTreeMap::new(),
            written: BTreeMap::new(),
            models: BTreeMap::new(),
            tiers: BTreeMap::new(),
        };
        c.add_models_toml(crate::energy::MODELS, Path::new("<built-in energy models>"))
            .expect("built-in energy models are valid (tested)");
        c.add_toml(PRESETS, Path::new("<built-in presets>")).expect("built-in device presets are valid (tested)");
        c
    }

    /// Adds (or overrides) energy models from TOML text (tables with `kind = "lpddr" | "emmc"`).
    pub fn add_models_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        let models: BTreeMap<String, EnergyModel> = crate::error::from_toml(origin, text)?;
        for (name, m) in models {
            m.validate(&name)?;
            self.models.insert(name, m);
        }
        Ok(())
    }

    pub fn model(&self, name: &str) -> Result<&EnergyModel> {
        self.models.get(name).ok_or_else(|| {
            let names: Vec<_> = self.models.keys().cloned().collect();
            Error::config("energy_model", format!("unknown energy model {name:?}; known: {}", names.join(", ")))
        })
    }

    pub fn models(&self) -> impl Iterator<Item = (&String, &EnergyModel)> {
        self.models.iter()
    }

    /// Adds devices from TOML text. A table named as a device already there (a preset) overrides
    /// the fields it sets and keeps the others; a new name is a whole device. A table
    /// `[energy_models.NAME]` in the same file adds energy models (read first, so the file's
    /// devices may name them).
    pub fn add_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        let mut doc: toml::Table = crate::error::from_toml(origin, text)?;
        let named = |k: &String| k != "energy_models" && k != "tiers";
        let mut written: BTreeMap<String, toml::Table> = BTreeMap::new();
        for (k, v) in doc.iter_mut().filter(|(k, _)| named(k)) {
            if let toml::Value::Table(t) = v {
                if let Some(base) = self.written.get(k) {
                    let mut merged = base.clone();
                    // A latency given one way replaces the preset's given the other.
                    for (a, b) in [("read_ns", "read_iops"), ("write_ns", "write_iops")] {
                        for (given, other) in [(a, b), (b, a)] {
                            if t.contains_key(given) {
                                merged.remove(other);
                            }
                        }
                    }
                    merged.extend(std::mem::take(t));
                    *t = merged;
                }
                written.insert(k.clone(), t.clone());
            }
        }
        let file: DeviceFile = if written.keys().all(|k| !self.written.contains_key(k)) {
            // Nothing merged: typed from the text, so that an error names its line.
            crate::error::from_toml(origin, text)?
        } else {
            serde_path_to_error::deserialize(toml::Value::Table(doc)).map_err(|e| {
                let key = e.path().to_string();
                Error::config(
                    format!("devices.{key}"),
                    format!("{}: {}", origin.display(), e.into_inner().message().trim()),
                )
            })?
        };
        self.add_file(file)?;
        self.written.extend(written);
        Ok(())
    }

    /// Adds what a parsed devices file (or a run file's `[devices]`) holds.
    pub fn add_file(&mut self, file: DeviceFile) -> Result<()> {
        for (name, m) in file.energy_models {
            m.validate(&name)?;
            self.models.insert(name, m);
        }
        for (name, spec) in file.devices {
            let d = spec.resolve(&name, &self.models)?;
            self.devices.insert(name, d);
        }
        for (name, spec) in file.tiers {
            let t = spec.resolve(&name)?;
            self.tiers.insert(name, t);
        }
        Ok(())
    }

    /// Adds devices from a TOML file.
    pub fn load_file(&mut self, path: &Path) -> Result<()> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        self.add_toml(&text, path)
    }

    pub fn get(&self, name: &str, field: &str) -> Result<&Device> {
        self.devices.get(name).ok_or_else(|| {
            let names: Vec<_> = self.devices.keys().cloned().collect();
            Error::config(field, format!("unknown device {name:?}; known: {}", names.join(", ")))
        })
    }

    pub fn all(&self) -> impl Iterator<Item = &Device> {
        self.devices.values()
    }

    /// A memory tier model by name (`field` names the setting in errors).
    pub fn tier(&self, name: &str, field: &str) -> Result<&TierModel> {
        self.tiers.get(name).ok_or_else(|| {
            let names: Vec<_> = self.tiers.keys().cloned().collect();
            Error::config(field, format!("unknown memory tier {name:?}; known: {}", names.join(", ")))
        })
    }

    pub fn tiers(&self) -> impl Iterator<Item = &TierModel> {
        self.tiers.values()
    }
}
