//! Ariadne's compressed swap (Liang et al., HPCA 2025): zram that compresses each page in the chunk
//! size of its hotness class (AdaptiveComp: hot and warm data in small chunks, fast to decompress;
//! cold data in large ones, at a better ratio) and, when a page is read back, decompresses the next
//! one ahead of use (PreDecomp). The phone keeps the classes (`Owners::hotness`, `Sim::mark_hot`,
//! `Engine::warm`); times and ratios per chunk size come from `device/compressors.toml`.
//!
//! Readings (docs/SYSTEM.md):
//! - A page compressed in a chunk larger than a page is read back by decompressing the whole
//!   chunk (the paper's Fig. 9b); the chunk's other pages stay compressed, so each of their faults
//!   pays the chunk again. (The paper writes them all to DRAM; which pages share a chunk it does
//!   not say, and the model does not track it. This prices cold faults at their upper bound.)
//! - `timing = "as-printed"`: each chunk size at its own row of Fig. 6; `"size-blind"`: every chunk
//!   size at the 4 KiB row's time per byte (the figure's small-chunk times are likely too low;
//!   compressors.toml says why). The ratio follows the chunk size under both.
//! - PreDecomp: a page read back from zram has the next page (by page number, the paper's
//!   "subsequent page") decompressed at once on another core, into a FIFO of `predecomp_pages`
//!   pages; a fault on a page there waits only for what is left of its decompression.
//! - With every class at 4 KiB and no PreDecomp it is stock zram at the compressor's 4 KiB row (the
//!   paper's baseline, `zram-lzo`).

use super::zram::Zram;
use super::{Build, SwapBackend, SwapEffects};
use crate::device::{Catalog, Device};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Fig. 6's tables, one per compressor.
const COMPRESSORS: &str = include_str!("../../device/compressors.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Compressor {
    #[allow(dead_code)]
    description: String,
    #[allow(dead_code)]
    source: String,
    sample_mib: f64,
    chunks: Vec<Chunk>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct Chunk {
    bytes: u64,
    comp_ms: f64,
    decomp_ms: f64,
    ratio: f64,
}

/// Names of the compressors `device/compressors.toml` describes.
pub fn compressors() -> Vec<String> {
    tables().keys().cloned().collect()
}

fn tables() -> BTreeMap<String, Compressor> {
    toml::from_str(COMPRESSORS).expect("device/compressors.toml is valid (tested)")
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// A compressor of `device/compressors.toml`.
    pub compressor: String,
    /// Chunk sizes, bytes, of hot, warm and cold data (the paper's SmallSize-MediumSize-LargeSize;
    /// 1K-2K-16K is the configuration its text quotes most).
    pub hot_chunk: u64,
    pub warm_chunk: u64,
    pub cold_chunk: u64,
    /// `"as-printed"` or `"size-blind"` (module doc).
    pub timing: String,
    /// Pages PreDecomp's buffer holds (0: off). Assumed: 1, the paper's "only one page" ahead.
    pub predecomp_pages: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            compressor: "lzo".into(),
            hot_chunk: 1024,
            warm_chunk: 2048,
            cold_chunk: 16384,
            timing: "as-printed".into(),
            predecomp_pages: 1,
        }
    }
}

/// What compressing by class costs, indexed by class (`crate::swap::COLD`, `WARM`, `HOT`).
#[derive(Debug, Clone, Serialize)]
pub struct ZramClasses {
    /// Pages per DRAM frame.
    pub ratio: [f64; 3],
    /// CPU time to compress one page, ns.
    pub compress_ns: [f64; 3],
    /// CPU time to read one page back: its chunk decompressed whole, ns.
    pub decompress_ns: [f64; 3],
    /// Chunk sizes, bytes.
    pub chunk: [u64; 3],
    /// PreDecomp's buffer, pages (0: off).
    pub predecomp_pages: u32,
}

pub struct Ariadne {
    zram: Zram,
    classes: ZramClasses,
}

impl SwapBackend for Ariadne {
    fn device(&self) -> &Device {
        self.zram.device()
    }
    // zram's, compressing by class; the pool's ratio is the cold class's.
    fn effects(&self) -> SwapEffects {
        SwapEffects {
            compression_ratio: Some(self.classes.ratio[crate::swap::COLD as usize]),
            classes: Some(self.classes.clone()),
            ..self.zram.effects()
        }
    }
}

/// Costs of class chunk sizes `chunk` (cold, warm, hot) under compressor `c` and `timing`.
fn costs(
    c: &Compressor,
    chunk: [u64; 3],
    size_blind: bool,
    page: u64,
    field: &dyn Fn(&str) -> String,
) -> Result<ZramClasses> {
    let sample_pages = c.sample_mib * 1048576.0 / page as f64;
    let row = |bytes: u64, name: &str| {
        c.chunks.iter().find(|r| r.bytes == bytes).copied().ok_or_else(|| {
            let known: Vec<String> = c.chunks.iter().map(|r| r.bytes.to_string()).collect();
            Error::config(
                field(name),
                format!("{bytes} is not a chunk size of the compressor's table; known: {}", known.join(", ")),
            )
        })
    };
    let page_row = row(page, "compressor")?;
    let mut out =
        ZramClasses { ratio: [0.0; 3], compress_ns: [0.0; 3], decompress_ns: [0.0; 3], chunk, predecomp_pages: 0 };
    for (k, name) in [(0, "cold_chunk"), (1, "warm_chunk"), (2, "hot_chunk")] {
        let r = row(chunk[k], name)?;
        let timed = if size_blind { page_row } else { r };
        out.ratio[k] = r.ratio;
        out.compress_ns[k] = timed.comp_ms * 1e6 / sample_pages;
        // A page in a chunk larger than a page is read by decompressing the whole chunk.
        let pages_read = (chunk[k] as f64 / page as f64).max(1.0);
        out.decompress_ns[k] = timed.decomp_ms * 1e6 / sample_pages * pages_read;
    }
    Ok(out)
}

impl Build for Ariadne {
    type Params = Params;
    fn new(device: Device, p: Params, _: &Catalog) -> Result<Self> {
        let name = device.name.clone();
        let field = move |f: &str| format!("devices.{name}.backend_params.{f}");
        let tables = tables();
        let c = tables.get(&p.compressor).ok_or_else(|| {
            Error::config(
                field("compressor"),
                format!("unknown compressor {:?}; known: {}", p.compressor, compressors().join(", ")),
            )
        })?;
        let size_blind = match p.timing.as_str() {
            "as-printed" => false,
            "size-blind" => true,
            other => {
                return Err(Error::config(
                    field("timing"),
                    format!("{other:?} is not \"as-printed\" or \"size-blind\""),
                ))
            }
        };
        if p.predecomp_pages > 4096 {
            return Err(Error::config(
                field("predecomp_pages"),
                format!("{} is more than 4096 pages", p.predecomp_pages),
            ));
        }
        let mut classes = costs(c, [p.cold_chunk, p.warm_chunk, p.hot_chunk], size_blind, PAGE, &field)?;
        classes.predecomp_pages = p.predecomp_pages;
        Ok(Ariadne { zram: Zram::on(device)?, classes })
    }
}

/// The page size the chunk table is priced at (Fig. 6's "a 4KB page").
const PAGE: u64 = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    fn build(p: Params) -> Result<Ariadne> {
        let cat = Catalog::builtin();
        Ariadne::new(cat.get("zram-lzo", "t").unwrap().clone(), p, &cat)
    }

    #[test]
    fn every_table_parses_and_is_ordered() {
        for (name, c) in tables() {
            assert!(c.chunks.windows(2).all(|w| w[0].bytes < w[1].bytes), "{name}");
            assert!(c.chunks.iter().all(|r| r.ratio >= 1.0 && r.comp_ms >= 0.0 && r.decomp_ms >= 0.0), "{name}");
            assert!(c.chunks.iter().any(|r| r.bytes == PAGE), "{name} has a page row");
        }
    }

    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is Fig. 6's LZO ratio at 2 KB, not π
    fn classes_follow_their_chunk_sizes() {
        let a = build(Params::default()).unwrap();
        let c = a.effects().classes.unwrap();
        // Fig. 6, LZO: 16 KB 3.78, 2 KB 3.14, 1 KB 2.84; a cold read decompresses 4 pages' worth.
        assert_eq!(c.ratio, [3.78, 3.14, 2.84]);
        let per_page = |ms: f64| ms * 1e6 / (576.0 * 256.0);
        assert!((c.decompress_ns[0] - 4.0 * per_page(250.0)).abs() < 1e-9);
        assert!((c.decompress_ns[1] - per_page(210.0)).abs() < 1e-9);
        assert!((c.compress_ns[2] - per_page(505.0)).abs() < 1e-9);
        assert_eq!(c.predecomp_pages, 1);
        // Size-blind: every class at the 4 KiB row's time per byte, its own ratio.
        let b = build(Params { timing: "size-blind".into(), ..Params::default() }).unwrap();
        let d = b.effects().classes.unwrap();
        assert_eq!(d.ratio, c.ratio);
        assert!((d.decompress_ns[2] - per_page(235.0)).abs() < 1e-9);
        assert!((d.decompress_ns[0] - 4.0 * per_page(235.0)).abs() < 1e-9);
    }

    #[test]
    fn bad_parameters_name_their_field() {
        let e = build(Params { cold_chunk: 3000, ..Params::default() }).err().unwrap().to_string();
        assert!(e.contains("backend_params.cold_chunk") && e.contains("3000"), "{e}");
        let e = build(Params { compressor: "zstd".into(), ..Params::default() }).err().unwrap().to_string();
        assert!(e.contains("backend_params.compressor") && e.contains("lzo"), "{e}");
        let e = build(Params { timing: "fast".into(), ..Params::default() }).err().unwrap().to_string();
        assert!(e.contains("backend_params.timing"), "{e}");
    }
}
