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

    /// Adds the phones of a phones file. A table named as a phone already there (a preset)
    /// overrides the fields it sets and keeps the others, as a run's overrides do (`get`); a new
    /// name is a whole phone.
    pub fn add_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        let t: BTreeMap<String, toml::Table> = crate::error::from_toml(origin, text)?;
        if t.keys().all(|n| !self.phones.contains_key(n)) {
            // Typed first, so that an error names its line and key.
            crate::error::from_toml::<BTreeMap<String, Phone>>(origin, text)?;
        }
        let mut added = Vec::new();
        for (name, table) in t {
            let merged = match self.phones.get(&name) {
                Some(base) => overlay(base.clone(), &table),
                None => table.clone(),
            };
            typed(&name, &merged).and_then(|p| meaningless(&table, &p)).map_err(|e| match e {
                Error::Config { field, msg } if field.starts_with("phone ") => {
                    Error::config(field, format!("{}: {msg}", origin.display()))
                }
                Error::Config { field, msg } => {
                    Error::config(format!("{name}.{field}"), format!("{}: {msg}", origin.display()))
                }
                e => e,
            })?;
            added.push((name, merged));
        }
        self.phones.extend(added);
        Ok(())
    }

    pub fn names(&self) -> impl Iterator<Item = &String> {
        self.phones.keys()
    }

    /// Phone `name` with `overrides` (a table of Phone fields) laid over it.
    pub fn get(&self, name: &str, overrides: &toml::Table) -> Result<Phone> {
        let t = self
            .phones
            .get(name)
            .ok_or_else(|| {
                let known: Vec<_> = self.phones.keys().cloned().collect();
                Error::config("phone", format!("unknown phone {name:?}; known: {}", known.join(", ")))
            })?
            .clone();
        let phone = typed(name, &overlay(t, overrides))?;
        meaningless(overrides, &phone)?;
        Ok(phone)
    }
}

/// `over`'s fields laid over phone table `t`. A different policy, killer or admission does not
/// inherit the preset's parameters for the old one; a parameters table given is taken whole (the
/// parameters of one choice); the other nested tables (`ux`, `kernel`) are merged field by field.
fn overlay(mut t: toml::Table, over: &toml::Table) -> toml::Table {
    const CHOICES: [(&str, &str); 3] =
        [("policy", "params"), ("killer", "killer_params"), ("swap_admission", "swap_admission_params")];
    for (choice, params) in CHOICES {
        if over.contains_key(choice) && !over.contains_key(params) && over.get(choice) != t.get(choice) {
            t.remove(params);
        }
    }
    for (k, v) in over {
        let merge = !CHOICES.iter().any(|(_, p)| p == k);
        match (t.get_mut(k), v) {
            (Some(toml::Value::Table(mine)), toml::Value::Table(theirs)) if merge => {
                mine.extend(theirs.iter().map(|(k, v)| (k.clone(), v.clone())))
            }
            _ => {
                t.insert(k.clone(), v.clone());
            }
        }
    }
    t
}

/// A setting the user's table `given` sets that the phone it makes gives no meaning: a config
/// error naming it, never a silent no-op. Only what the user set counts: a preset's swap size stays
/// when a run turns its swap off (`--set swap=off`), as the eMMC reproduction does.
fn meaningless(given: &toml::Table, phone: &Phone) -> Result<()> {
    if phone.swap_on() {
        return Ok(());
    }
    if let Some(s) = phone.swap_size.as_ref().filter(|_| given.contains_key("swap_size")) {
        return Err(Error::config(
            "swap_size",
            format!("{s} sizes no swap: swap is off (drop it or name a swap device)"),
        ));
    }
    // 0 is read-around off, which swap off is too.
    let pc = phone.page_cluster.order();
    if pc > 0 && given.contains_key("page_cluster") {
        return Err(Error::config(
            "page_cluster",
            format!("{pc} reads nothing around a swap fault: swap is off (drop it or name a swap device)"),
        ));
    }
    Ok(())
}

/// Phone `name` typed from its table; an error names the field under the phone.
fn typed(name: &str, t: &toml::Table) -> Result<Phone> {
    if t.contains_key("reclaim_batch") {
        // A page run's `reclaim_batch` is another thing (what a fault on full memory frees).
        let why = "a phone's pages per kswapd and direct-reclaim pass are `reclaim_pass`";
        return Err(Error::config("reclaim_batch", why));
    }
    if !t.contains_key("dram") {
        return Err(Error::config(format!("phone {name}"), "a phone needs its DRAM size (dram = \"2GiB\")"));
    }
    serde_path_to_error::deserialize(toml::Value::Table(t.clone())).map_err(|e| {
        let key = e.path().to_string();
        Error::config(if key == "." { format!("phone {name}") } else { key }, e.into_inner().message().trim())
    })
}
