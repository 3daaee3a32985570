//! Sizes given by users: a number of pages (`1024`), bytes with a unit (`64MiB`, `2GB`, `4096B`),
//! or a share of the trace's footprint (`10%`).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(into = "String")]
pub enum MemorySize {
    Pages(u64),
    Bytes(u64),
    /// Percent of the footprint (distinct pages) of the trace being run.
    Percent(f64),
}

impl MemorySize {
    /// Resolves to a number of page frames. A percentage rounds to the nearest page and never
    /// gives fewer than one frame, so that `1%` of a tiny trace still runs.
    pub fn to_pages(&self, page_size: u64, footprint_pages: u64) -> u64 {
        match *self {
            MemorySize::Pages(p) => p,
            MemorySize::Bytes(b) => b / page_size,
            MemorySize::Percent(p) => ((footprint_pages as f64) * p / 100.0).round().max(1.0) as u64,
        }
    }
}

fn unit_multiplier(unit: &str) -> Option<u64> {
    Some(match unit.to_ascii_lowercase().as_str() {
        "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    })
}

impl FromStr for MemorySize {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let t = s.trim();
        let bad = |why: &str| Error::config("memory", format!("{why}: {s:?}"));
        if t.is_empty() {
            return Err(bad("empty size"));
        }
        if t.starts_with('-') {
            return Err(bad("a size cannot be negative"));
        }
        if let Some(num) = t.strip_suffix('%') {
            let p: f64 = num.trim().parse().map_err(|_| bad("not a percentage"))?;
            if !(p > 0.0 && p.is_finite()) {
                return Err(bad("a percentage must be positive"));
            }
            return Ok(MemorySize::Percent(p));
        }
        let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let unit = unit.trim();
        if unit.is_empty() || unit.eq_ignore_ascii_case("pages") || unit.eq_ignore_ascii_case("p") {
            let n: u64 = num.parse().map_err(|_| bad("not a whole number of pages"))?;
            if n == 0 {
                return Err(bad("a size must be at least one page"));
            }
            return Ok(MemorySize::Pages(n));
        }
        let mult = unit_multiplier(unit).ok_or_else(|| bad("unknown unit (use B, KiB, MiB, GiB, %, or pages)"))?;
        let v: f64 = num.parse().map_err(|_| bad("not a number"))?;
        let bytes = v * mult as f64;
        if !(bytes >= 1.0 && bytes.is_finite() && bytes < 1.8e19) {
            return Err(bad("size out of range"));
        }
        Ok(MemorySize::Bytes(bytes.round() as u64))
    }
}

/// A config file may hold a size as a whole number of pages or as a string; anything else gets a
/// message that says which forms exist (the field's path is added by the caller).
impl<'de> Deserialize<'de> for MemorySize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        const FORMS: &str = "a size: pages (1024), bytes (\"64MiB\") or a share of the footprint (\"10%\")";
        impl serde::de::Visitor<'_> for V {
            type Value = MemorySize;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(FORMS)
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> std::result::Result<MemorySize, E> {
                if n == 0 {
                    return Err(E::custom("a size must be at least one page, got 0"));
                }
                Ok(MemorySize::Pages(n))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> std::result::Result<MemorySize, E> {
                match u64::try_from(n) {
                    Ok(n) => self.visit_u64(n),
                    Err(_) => Err(E::custom(format!("expected {FORMS}, got {n}"))),
                }
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> std::result::Result<MemorySize, E> {
                Err(E::custom(format!("expected {FORMS}, got {v} (a number of pages is whole)")))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<MemorySize, E> {
                s.parse::<MemorySize>().map_err(|e| match e {
                    Error::Config { msg, .. } => E::custom(msg),
                    e => E::custom(e),
                })
            }
        }
        d.deserialize_any(V)
    }
}

impl From<MemorySize> for String {
    fn from(m: MemorySize) -> String {
        m.to_string()
    }
}

impl fmt::Display for MemorySize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemorySize::Pages(p) => write!(f, "{p}"),
            MemorySize::Bytes(b) if b % (1 << 30) == 0 => write!(f, "{}GiB", b >> 30),
            MemorySize::Bytes(b) if b % (1 << 20) == 0 => write!(f, "{}MiB", b >> 20),
            MemorySize::Bytes(b) if b % (1 << 10) == 0 => write!(f, "{}KiB", b >> 10),
            MemorySize::Bytes(b) => write!(f, "{b}B"),
            MemorySize::Percent(p) => write!(f, "{p}%"),
        }
    }
}

/// Parses a count such as `18M`, `2.5k` or `1000000` (decimal multipliers: k, M, G).
pub fn parse_count(field: &str, s: &str) -> Result<u64> {
    let t = s.trim();
    let bad = || Error::config(field, format!("not a count: {s:?}"));
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1e3),
        Some('m' | 'M') => (&t[..t.len() - 1], 1e6),
        Some('g' | 'G') => (&t[..t.len() - 1], 1e9),
        _ => (t, 1.0),
    };
    let v: f64 = num.trim().parse().map_err(|_| bad())?;
    let n = v * mult;
    if !(n >= 0.0 && n.is_finite()) {
        return Err(bad());
    }
    // A count is whole: 1.5 of something is a mistake, not 2 of it (1.5M is 1,500,000; 1.1k is
    // 1100 although 1.1 × 1000 is 1100.0000000000002 in binary floating point).
    let n = if (n - n.round()).abs() <= 1e-9 * n.max(1.0) { n.round() } else { n };
    if n.fract() != 0.0 {
        return Err(Error::config(field, format!("{s:?} is not a whole number")));
    }
    if n >= u64::MAX as f64 {
        return Err(Error::config(field, format!("{s:?} is larger than any count mobmem can hold")));
    }
    Ok(n as u64)
}

/// A table of named values (a policy's or a device's parameters) as its JSON schema describes it.
pub type Table = serde_json::Map<String, serde_json::Value>;

/// A size is written as text: `1024`, `64MiB`, `10%`.
impl schemars::JsonSchema for MemorySize {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "MemorySize".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <String as schemars::JsonSchema>::json_schema(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_whole() {
        assert_eq!(parse_count("n", "1.1k").unwrap(), 1100);
        assert_eq!(parse_count("n", "1.5M").unwrap(), 1_500_000);
        assert_eq!(parse_count("n", "7").unwrap(), 7);
        for bad in ["1.5", "0.0003k", "-1", "lots", "1e300G", "NaN"] {
            assert!(parse_count("n", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_all_forms() {
        assert_eq!("1024".parse::<MemorySize>().unwrap(), MemorySize::Pages(1024));
        assert_eq!("64MiB".parse::<MemorySize>().unwrap(), MemorySize::Bytes(64 << 20));
        assert_eq!("1.5 GiB".parse::<MemorySize>().unwrap(), MemorySize::Bytes(3 << 29));
        assert_eq!("10%".parse::<MemorySize>().unwrap(), MemorySize::Percent(10.0));
        assert_eq!(MemorySize::Percent(10.0).to_pages(4096, 1000), 100);
        assert_eq!(MemorySize::Bytes(64 << 20).to_pages(4096, 1), 16384);
        assert_eq!(MemorySize::Percent(0.001).to_pages(4096, 10), 1);
    }

    #[test]
    fn rejects_nonsense() {
        for s in ["", "0", "-5%", "abc", "10XB", "0%", "nan%", "1e400B"] {
            assert!(s.parse::<MemorySize>().is_err(), "{s} should be rejected");
        }
        for s in ["-5", "-5%", " -64MiB"] {
            let e = s.parse::<MemorySize>().unwrap_err().to_string();
            assert!(e.contains("cannot be negative") && e.contains(s), "{s}: {e}");
        }
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("n", "18M").unwrap(), 18_000_000);
        assert_eq!(parse_count("n", "2.5k").unwrap(), 2500);
        assert!(parse_count("n", "x").is_err());
    }
}
