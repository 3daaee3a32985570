//! The DR. Swap paper's Table III app categories as round-robin workloads: the apps and sizes come
//! from the app catalog (`dr-swap.NAME` lists in `system/apps.toml`), so they live at the system
//! level; the workload itself is the trace level's (`trace::round_robin`).

use crate::error::{Error, Result};
use crate::trace::gen::GenParams;
use crate::trace::round_robin::{AppSpec, RoundRobin};

/// The DR. Swap paper's Table III: eight app categories of five apps each (its six categories and
/// two mixes), with app sizes in MiB, in the paper's order. Read from the app catalog's lists
/// (`dr-swap.NAME` in `system/apps.toml`), the one table both ways in use.
pub fn categories() -> Vec<(String, Vec<(String, f64)>)> {
    let c = super::catalog::AppCatalog::builtin();
    c.lists()
        .iter()
        .filter_map(|l| l.name.strip_prefix("dr-swap.").map(|n| (n, &l.apps)))
        .map(|(n, apps)| {
            let sized = apps.iter().map(|a| (a.clone(), c.get(a).map_or(0.0, |p| p.size_mib))).collect();
            (n.to_string(), sized)
        })
        .collect()
}

/// Share of an app's anon pages that keep being written in the Table III category workloads: an
/// assumption (the paper gives app sizes only), standing for DR. Swap's premise that many swapped
/// pages are only read after they were written once.
pub const CATEGORY_ANON_RW_SHARE: f64 = 0.3;

/// A Table III category as a round-robin workload (synthetic: app sizes are the paper's, the
/// access behaviour is the generator's defaults with the given `anon_rw_share`; the reproduction
/// uses `CATEGORY_ANON_RW_SHARE`).
pub fn category(name: &str, rounds: u32, accesses_per_turn: u64, seed: u64, anon_rw_share: f64) -> Result<RoundRobin> {
    let all = categories();
    let (_, apps) = all.iter().find(|(n, _)| n == name).ok_or_else(|| {
        let names: Vec<_> = all.iter().map(|(n, _)| n.as_str()).collect();
        Error::config("category", format!("unknown category {name:?}; known: {}", names.join(", ")))
    })?;
    Ok(RoundRobin {
        apps: apps
            .iter()
            .map(|(n, mb)| AppSpec {
                name: n.to_string(),
                size_mib: *mb,
                params: Some(GenParams { anon_rw_share, ..GenParams::default() }),
            })
            .collect(),
        rounds,
        accesses_per_turn,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::round_robin::{CACHED_ADJ, PREVIOUS_ADJ};

    #[test]
    fn categories_are_round_robin_processes() {
        let w = category("news", 3, 2_000, 5, CATEGORY_ANON_RW_SHARE).unwrap();
        let t = w.generate().unwrap();
        assert_eq!(t.len(), 5 * 3 * 2_000);
        let pids = t.page_pids.as_ref().unwrap();
        // Turn k runs app k % 5 + 1.
        for (k, chunk) in t.accesses.chunks(2_000).enumerate() {
            assert!(chunk.iter().all(|&a| pids[(a >> 2) as usize] == (k % 5) as u32 + 1), "turn {k}");
            // Foreground in its turn, the one before is the previous app, the rest cached or not started.
            let procs = t.procs.as_ref().unwrap();
            let at = (k * 2_000) as u64;
            let adj = |app: usize| procs.adj_at(app as u32 + 1, at).unwrap();
            assert_eq!(adj(k % 5), 0, "turn {k}");
            if k > 0 {
                assert_eq!(adj((k + 4) % 5), PREVIOUS_ADJ, "turn {k}");
            }
            let others: Vec<i32> = (2..5).map(|d| adj((k + 5 - d) % 5)).collect();
            let want = if k >= 4 {
                vec![CACHED_ADJ; 3]
            } else {
                (2..5).map(|d| if d <= k { CACHED_ADJ } else { 1000 }).collect()
            };
            assert_eq!(others, want, "turn {k}");
        }
        let s = t.stats(4096);
        assert_eq!(s.pids.len(), 5);
        for p in &s.pids {
            let mb = categories()[1].1[p.pid as usize - 1].1;
            assert!(p.pages <= (mb * 256.0).round() as u64);
        }
        assert_eq!(w.generate().unwrap().accesses, t.accesses, "deterministic");
        assert!(category("tiktok", 1, 1, 1, 0.3).is_err());
    }
}
