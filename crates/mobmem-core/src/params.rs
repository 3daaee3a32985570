//! Typed parameters from a TOML table, for every kind of thing that takes them (policies, swap
//! admissions, swap backends, killers): a leaf, so none of them imports another for it.

use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Reads a thing's typed parameters from a TOML table; unknown keys are errors naming the key.
pub fn parse_params<T: DeserializeOwned>(name: &str, table: &toml::Table) -> Result<T> {
    toml::Value::Table(table.clone())
        .try_into()
        .map_err(|e| Error::config(format!("params ({name})"), e.to_string().trim().to_string()))
}

/// No parameters (an empty table; any key is an error naming it).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}
