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

/// `t` over `base`: the fields `t` sets replace the base's, the others stay. A latency given one
/// way replaces the base's given the other.
fn merge_over(base: &toml::Table, t: &mut toml::Table) {
    let mut merged = base.clone();
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

/// The devices and energy models a run can name: built-in presets plus any loaded from files.
#[derive(Debug, Clone)]
pub struct Catalog {
    devices: BTreeMap<String, Device>,
    /// Each device's, energy model's (`energy_models.NAME`) and tier's (`tiers.NAME`) table as
    /// written (the presets' and the files'), for a later file that names one to override fields of.
    written: BTreeMap<String, toml::Table>,
    models: BTreeMap<String, EnergyModel>,
    tiers: BTreeMap<String, TierModel>,
}

/// The built-in device and tier presets as written (a devices file or a run file's `[devices]`
/// naming a preset overrides the fields it sets).
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

    /// Adds (or overrides) energy models from TOML text (tables with `kind = "lpddr" | "emmc"`): a
    /// table named as a model already there overrides the fields it sets.
    pub fn add_models_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        let models: toml::Table = crate::error::from_toml(origin, text)?;
        let doc = toml::Table::from_iter([("energy_models".to_string(), toml::Value::Table(models))]);
        let typed = || crate::error::from_toml::<BTreeMap<String, EnergyModel>>(origin, text);
        self.add_table(doc, origin, || Ok(DeviceFile { energy_models: typed()?, ..DeviceFile::default() }))
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
    /// the fields it sets and keeps the others; a new name is a whole device. The same holds for
    /// `[energy_models.NAME]` and `[tiers.NAME]` in the same file (energy models are read first, so
    /// the file's devices may name them).
    pub fn add_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        let doc: toml::Table = crate::error::from_toml(origin, text)?;
        self.add_table(doc, origin, || crate::error::from_toml(origin, text))
    }

    /// Adds a devices table read from `origin` (a devices file, or a run file's `[devices]`), each
    /// table named as one already there merged over it. With nothing merged, `typed` reads it
    /// from its text, so that an error names its line.
    pub fn add_table(
        &mut self,
        mut doc: toml::Table,
        origin: &Path,
        typed: impl FnOnce() -> Result<DeviceFile>,
    ) -> Result<()> {
        let mut written: BTreeMap<String, toml::Table> = BTreeMap::new();
        let mut merged_any = false;
        for (k, v) in doc.iter_mut() {
            let toml::Value::Table(t) = v else { continue };
            let section = k == "energy_models" || k == "tiers";
            let tables: Vec<(String, &mut toml::Table)> = if section {
                t.iter_mut().filter_map(|(n, v)| v.as_table_mut().map(|t| (format!("{k}.{n}"), t))).collect()
            } else {
                vec![(k.clone(), t)]
            };
            for (key, t) in tables {
                if let Some(base) = self.written.get(&key) {
                    merge_over(base, t);
                    merged_any = true;
                }
                written.insert(key, t.clone());
            }
        }
        let file: DeviceFile = if !merged_any {
            typed()?
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
