//! Android's legacy low memory killer (the in-kernel `lowmemorykiller` driver, with the levels
//! ActivityManager writes to it). Six levels pair an `oom_score_adj` with a number of free pages;
//! when free memory and the file cache are *both* below a level, processes with adj at or above
//! that level's adj may be killed (the first such level, i.e. the smallest number of pages, wins).
//!
//! The page levels are AOSP's `ProcessList.updateOomLevels`: each level goes from
//! `mOomMinFreeLow` to `mOomMinFreeHigh` (KiB) as total memory goes from 350 MB to 700 MB (or the
//! display from 480×800 to 1280×800 pixels, whichever is further), and a 64-bit phone raises the
//! two cached levels by 3/2 and 7/4. A phone of 700 MB or more with a 64-bit kernel gets
//! {72, 90, 108, 126, 216, 315} MiB = {18432, 23040, 27648, 32256, 55296, 80640} 4 KiB pages.
//! `minfree_kib` overrides the computed levels. The adj levels {0, 100, 200, 250, 900, 950} are
//! those of lmkd's minfree mode in recent AOSP. `table = "jelly-bean"` scales Android 4.1–4.3's
//! smaller tables ({8, 12, 16, 24, 28, 32} to {48, 60, 72, 84, 96, 120} MiB), whose adj levels
//! {0, 1, 2, 3, 9, 15} in the old oom_adj units are {0, 58, 117, 176, 529, 882} in oom_score_adj.

use super::{Build, Kill, KillReason, Killer, KillerSetup, MemView, Tie};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// `ProcessList.mOomMinFreeLow` and `mOomMinFreeHigh`, KiB, of recent AOSP.
const LOW_KIB: [u64; 6] = [12288, 18432, 24576, 36864, 43008, 49152];
const HIGH_KIB: [u64; 6] = [73728, 92160, 110592, 129024, 147456, 184320];
/// The same tables in Jelly Bean's ProcessList (Android 4.1–4.3).
const JB_LOW_KIB: [u64; 6] = [8192, 12288, 16384, 24576, 28672, 32768];
const JB_HIGH_KIB: [u64; 6] = [49152, 61440, 73728, 86016, 98304, 122880];

/// Which ProcessList tables to scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Table {
    #[default]
    Aosp,
    JellyBean,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// oom_score_adj of each level, increasing.
    pub adj: Vec<i32>,
    /// Free-page level of each adj level in KiB; computed from the phone when absent.
    pub minfree_kib: Option<Vec<u64>>,
    /// Display size in pixels (width, height), for ProcessList's scaling.
    pub display: [u64; 2],
    pub is_64bit: bool,
    /// `aosp` (recent ProcessList) or `jelly-bean` (Android 4.1–4.3, smaller levels).
    pub table: Table,
    pub tie: Tie,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            adj: vec![0, 100, 200, 250, 900, 950],
            minfree_kib: None,
            display: [1080, 2340],
            is_64bit: true,
            table: Table::Aosp,
            tie: Tie::Lru,
        }
    }
}

/// ProcessList.updateOomLevels: the six levels in KiB for a phone of `total_mb` MB.
pub fn processlist_levels_kib(total_mb: f64, display: [u64; 2], is_64bit: bool, table: Table) -> [u64; 6] {
    let (lows, highs) = match table {
        Table::Aosp => (LOW_KIB, HIGH_KIB),
        Table::JellyBean => (JB_LOW_KIB, JB_HIGH_KIB),
    };
    let scale_mem = (total_mb - 350.0) / (700.0 - 350.0);
    let (min_size, max_size) = (480.0 * 800.0, 1280.0 * 800.0);
    let scale_disp = ((display[0] * display[1]) as f64 - min_size) / (max_size - min_size);
    let scale = scale_mem.max(scale_disp).clamp(0.0, 1.0);
    let mut out = [0; 6];
    for i in 0..6 {
        let low = lows[i];
        let mut high = highs[i];
        if is_64bit {
            if i == 4 {
                high = high * 3 / 2;
            } else if i == 5 {
                high = high * 7 / 4;
            }
        }
        out[i] = (low as f64 + (high - low) as f64 * scale) as u64;
    }
    out
}

pub struct Minfree {
    /// (adj, pages), pages increasing.
    levels: Vec<(i32, u64)>,
    tie: Tie,
}

impl Build for Minfree {
    type Params = Params;

    fn new(s: &KillerSetup, p: Params) -> Result<Self> {
        let kib: Vec<u64> = match p.minfree_kib {
            Some(v) => v,
            None => {
                if p.adj.len() != 6 {
                    return Err(Error::config(
                        "killer_params.minfree_kib",
                        format!("give the levels for {} adj values (ProcessList computes exactly six)", p.adj.len()),
                    ));
                }
                processlist_levels_kib(s.dram_bytes as f64 / 1e6, p.display, p.is_64bit, p.table).to_vec()
            }
        };
        if kib.len() != p.adj.len() || kib.is_empty() {
            return Err(Error::config(
                "killer_params.minfree_kib",
                format!("{} levels for {} adj values", kib.len(), p.adj.len()),
            ));
        }
        for w in p.adj.windows(2) {
            if w[1] <= w[0] {
                return Err(Error::config("killer_params.adj", format!("must increase; {} after {}", w[1], w[0])));
            }
        }
        for w in kib.windows(2) {
            if w[1] < w[0] {
                return Err(Error::config(
                    "killer_params.minfree_kib",
                    format!("must not decrease; {} after {}", w[1], w[0]),
                ));
            }
        }
        let levels = p.adj.iter().zip(&kib).map(|(&a, &k)| (a, k * 1024 / s.page_size)).collect();
        Ok(Minfree { levels, tie: p.tie })
    }
}

impl Killer for Minfree {
    fn check(&mut self, m: &MemView) -> Option<Kill> {
        self.levels
            .iter()
            .find(|&&(_, pages)| m.free_pages < pages && m.file_pages < pages)
            .map(|&(adj, _)| Kill { min_adj: adj, reason: KillReason::Minfree })
    }

    fn tie(&self) -> Tie {
        self.tie
    }

    fn levels(&self) -> Vec<(i32, u64)> {
        self.levels.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processlist_levels() {
        // The typical 64-bit phone.
        let pages: Vec<u64> =
            processlist_levels_kib(4096.0, [1080, 2340], true, Table::Aosp).iter().map(|k| k / 4).collect();
        assert_eq!(pages, [18432, 23040, 27648, 32256, 55296, 80640]);
        // A small 32-bit phone with a small screen: the low values.
        assert_eq!(processlist_levels_kib(300.0, [480, 800], false, Table::Aosp), LOW_KIB);
        assert_eq!(processlist_levels_kib(1024.0, [720, 1280], false, Table::JellyBean), JB_HIGH_KIB);
        // Half way in memory.
        let mid = processlist_levels_kib(525.0, [480, 800], false, Table::Aosp);
        assert_eq!(mid[0], (12288 + 73728) / 2);
    }

    #[test]
    fn fires_only_when_free_and_file_are_both_below() {
        let setup = KillerSetup { dram_bytes: 4 << 30, page_size: 4096 };
        let mut k = Minfree::new(&setup, Params::default()).unwrap();
        let m = |free, file| MemView { free_pages: free, file_pages: file, ..Default::default() };
        assert_eq!(k.check(&m(100_000, 0)), None);
        assert_eq!(k.check(&m(0, 100_000)), None);
        assert_eq!(k.check(&m(60_000, 60_000)), Some(Kill { min_adj: 950, reason: KillReason::Minfree }));
        assert_eq!(k.check(&m(50_000, 70_000)), Some(Kill { min_adj: 950, reason: KillReason::Minfree }));
        assert_eq!(k.check(&m(50_000, 50_000)), Some(Kill { min_adj: 900, reason: KillReason::Minfree }));
        assert_eq!(k.check(&m(1000, 1000)), Some(Kill { min_adj: 0, reason: KillReason::Minfree }));
        let p = Params { minfree_kib: Some(vec![1, 2]), ..Params::default() };
        assert!(Minfree::new(&setup, p).is_err());
        let p = Params { adj: vec![0, 900], minfree_kib: Some(vec![4096, 8192]), ..Params::default() };
        let mut k = Minfree::new(&setup, p).unwrap();
        assert_eq!(k.levels(), vec![(0, 1024), (900, 2048)]);
        assert_eq!(k.check(&m(2000, 2000)).map(|k| k.min_adj), Some(900));
    }
}
