//! How a launch's delay is perceived: user-perceived delay classes and Android vitals' marks.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// User-perceived delay classes (Tolia et al., IEEE Computer 2006) and Android vitals' marks of an
/// excessive start, in ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct UxThresholds {
    pub crisp_ms: f64,
    pub noticeable_ms: f64,
    pub annoying_ms: f64,
    pub unacceptable_ms: f64,
    pub vitals_cold_ms: f64,
    pub vitals_warm_ms: f64,
    pub vitals_hot_ms: f64,
}

impl Default for UxThresholds {
    fn default() -> Self {
        UxThresholds {
            crisp_ms: 150.0,
            noticeable_ms: 1000.0,
            annoying_ms: 2000.0,
            unacceptable_ms: 5000.0,
            vitals_cold_ms: 5000.0,
            vitals_warm_ms: 2000.0,
            vitals_hot_ms: 1500.0,
        }
    }
}

/// How a launch's delay is perceived, fastest first (the thresholds are `UxThresholds`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum UxClass {
    Crisp,
    Noticeable,
    Annoying,
    Unacceptable,
    Unusable,
}

impl UxClass {
    pub const ALL: [UxClass; 5] =
        [UxClass::Crisp, UxClass::Noticeable, UxClass::Annoying, UxClass::Unacceptable, UxClass::Unusable];

    pub fn as_str(self) -> &'static str {
        match self {
            UxClass::Crisp => "crisp",
            UxClass::Noticeable => "noticeable",
            UxClass::Annoying => "annoying",
            UxClass::Unacceptable => "unacceptable",
            UxClass::Unusable => "unusable",
        }
    }
}

/// The five classes' names, fastest first.
pub const UX_CLASSES: [&str; 5] = ["crisp", "noticeable", "annoying", "unacceptable", "unusable"];

impl UxThresholds {
    /// The class of a delay.
    pub fn class(&self, ms: f64) -> UxClass {
        let above = [self.crisp_ms, self.noticeable_ms, self.annoying_ms, self.unacceptable_ms]
            .iter()
            .take_while(|&&t| ms >= t)
            .count();
        UxClass::ALL[above]
    }
    pub(crate) fn validate(&self) -> Result<()> {
        let t = [self.crisp_ms, self.noticeable_ms, self.annoying_ms, self.unacceptable_ms];
        if t.iter().any(|v| !(*v > 0.0 && v.is_finite())) || t.windows(2).any(|w| w[1] <= w[0]) {
            return Err(Error::config("ux", format!("class thresholds must be positive and increasing, got {t:?} ms")));
        }
        for (f, v) in [
            ("vitals_cold_ms", self.vitals_cold_ms),
            ("vitals_warm_ms", self.vitals_warm_ms),
            ("vitals_hot_ms", self.vitals_hot_ms),
        ] {
            if !(v > 0.0 && v.is_finite()) {
                return Err(Error::config(format!("ux.{f}"), format!("{v} must be positive")));
            }
        }
        Ok(())
    }
}
