//! Named phones: presets in `phones.toml` (compiled in) and any loaded from files, kept as tables
//! so that a run's overrides lay over them before they are typed.

use super::phone::Phone;
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::Path;

pub const BUILTIN: &str = include_str!("phones.toml");

/// Named phones: the built-in presets plus any loaded from files.
#[derive(Debug, Clone)]
pub struct Phones {
    phones: BTreeMap<String, toml::Table>,
}

impl Phones {
    pub fn builtin() -> Phones {
        let mut p = Phones { phones: BTreeMap::new() };
        p.add_toml(BUILTIN, Path::new("<built-in phones>")).expect("built-in phones are valid (tested)");
        p
    }

    pub fn add_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        // Typed first, so that an error names its line and key; kept as tables for overrides.
        crate::error::from_toml::<BTreeMap<String, Phone>>(origin, text)?;
        let t: BTreeMap<String, toml::Table> = crate::error::from_toml(origin, text)?;
        for (name, table) in t {
            self.phones.insert(name, table);
        }
        Ok(())
    }

    pub fn names(&self) -> impl Iterator<Item = &String> {
        self.phones.keys()
    }

    /// Phone `name` with `overrides` (a table of Phone fields) laid over it.
    pub fn get(&self, name: &str, overrides: &toml::Table) -> Result<Phone> {
        let mut t = self
            .phones
            .get(name)
            .ok_or_else(|| {
                let known: Vec<_> = self.phones.keys().cloned().collect();
                Error::config("phone", format!("unknown phone {name:?}; known: {}", known.join(", ")))
            })?
            .clone();
        // A different policy or killer does not inherit the preset's parameters for the old one.
        for (choice, params) in
            [("policy", "params"), ("killer", "killer_params"), ("swap_admission", "swap_admission_params")]
        {
            if overrides.contains_key(choice)
                && !overrides.contains_key(params)
                && overrides.get(choice) != t.get(choice)
            {
                t.remove(params);
            }
        }
        for (k, v) in overrides {
            t.insert(k.clone(), v.clone());
        }
        serde_path_to_error::deserialize(toml::Value::Table(t)).map_err(|e| {
            let key = e.path().to_string();
            Error::config(if key == "." { format!("phone {name}") } else { key }, e.into_inner().message().trim())
        })
    }
}
