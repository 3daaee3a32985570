//! A page-level run resolved once. A `SimConfig` names things (devices, a policy, an admission)
//! and sizes them relative to a trace; `resolve` looks each up, builds it and checks the
//! combination once, and the run is built from the `Plan` alone. The result's config echo is the
//! plan serialized: the knobs as given, with what they resolved to in place of names and shares.

mod common;
mod phone;
mod swap;

use crate::config::{SimConfig, SWAP_CLUSTER_MAX};
use crate::device::{Catalog, Device, TierModel};
use crate::error::{Error, Result};
use crate::policy;
use crate::swap::backend::{SwapBackend, SwapEffects};
use crate::swap::SwapSemantics;
use serde::{Serialize, Serializer};

pub use common::Common;
pub use phone::PhonePlan;
pub use swap::{SwapPlan, SwapSettings};

/// Everything a config resolves to before it meets a trace: the knobs both levels have (devices,
/// the swap backend, the policy's and the admission's parameters, what a swap-in keeps), resolved
/// as a phone's are (`Common`), and the page level's own (tiers).
pub struct Resolved {
    pub given: SimConfig,
    pub common: Common,
    /// The tier models of hybrid memory (DRAM, PCM).
    pub tier_models: Option<(TierModel, TierModel)>,
}

/// A run's plan: `Resolved` at a trace's footprint.
pub struct Plan {
    pub resolved: Resolved,
    /// DRAM frames (`memory` of the footprint).
    pub frames: u64,
    /// Swap capacity in pages; `None`: unlimited.
    pub swap_pages: Option<u64>,
    /// Hybrid memory's split into DRAM and PCM frames.
    pub tiers: Option<ResolvedTiers>,
}

/// Resolves `cfg` against `catalog` for a trace of `footprint` distinct pages.
pub fn resolve(cfg: &SimConfig, catalog: &Catalog, footprint: u64) -> Result<Plan> {
    Resolved::new(cfg, catalog)?.at(footprint)
}

impl Resolved {
    /// Looks up, builds and checks everything `cfg` names.
    pub fn new(cfg: &SimConfig, catalog: &Catalog) -> Result<Resolved> {
        if !(cfg.cpu_ns_per_access >= 0.0 && cfg.cpu_ns_per_access.is_finite()) {
            return Err(Error::config("cpu_ns_per_access", format!("{} is not a time ≥ 0", cfg.cpu_ns_per_access)));
        }
        crate::limits::per_op("cpu_ns_per_access", cfg.cpu_ns_per_access)?;
        if cfg.reclaim_batch == 0 {
            return Err(Error::config("reclaim_batch", "0 frees no page: at least 1"));
        }
        // Read-around reads into free frames; a fault on full memory that frees one frame leaves
        // none, so past the first fill the knob would do nothing, silently.
        if cfg.page_cluster.order() > 0 && cfg.reclaim_batch == 1 {
            return Err(Error::config(
                "page_cluster",
                format!(
                    "{} reads around into free frames, and a reclaim_batch of 1 leaves none once memory is full: \
                     give reclaim_batch ≥ 2 (Linux's memory cgroup: {SWAP_CLUSTER_MAX}) or page_cluster 0",
                    cfg.page_cluster.order()
                ),
            ));
        }
        if let Some(d) = cfg.energy_duration_s {
            if !(d > 0.0 && d.is_finite()) {
                return Err(Error::config("energy_duration_s", format!("{d} is not a positive duration")));
            }
            // Static energy is a power times this: bounded as a per-operation cost, it stays finite.
            crate::limits::per_op("energy_duration_s", d)?;
        }
        let swap = catalog.get(&cfg.swap, "swap")?;
        let common = Common::resolve(&cfg.shared(), Some(swap), cfg.anon_first_touch, catalog)?;
        if cfg.page_cluster.order() > 0 && common.swap.effects.synchronous_io {
            let why = format!(
                "{}, but {:?} is a synchronous-I/O device (zram): a swap-in reads only its own page, as Linux's \
                 do_swap_page bypasses the swap cache; give page_cluster 0",
                cfg.page_cluster.order(),
                cfg.swap
            );
            return Err(Error::config("page_cluster", why));
        }
        let swap_plan = &common.swap;
        if swap_plan.backend.is_none() {
            return Err(Error::Invariant("a page run's swap is off".into()));
        }
        if swap_plan.effects.classes.is_some() {
            // Its classes are the phone's lists, marked by launches; a page trace has none.
            let why =
                format!("{:?} compresses by hotness class, which only the phone level keeps (mobmem phone)", cfg.swap);
            return Err(Error::config("swap", why));
        }
        let semantics = swap_plan.semantics;
        let tier_models = match &cfg.tiers {
            Some(t) => {
                t.validate(catalog, cfg.page_size)?;
                check_tiers(cfg, &swap_plan.effects, semantics)?;
                Some((catalog.tier(&t.dram, "tiers.dram")?.clone(), catalog.tier(&t.pcm, "tiers.pcm")?.clone()))
            }
            None if policy::needs_tiers(&cfg.policy) => {
                return Err(Error::config(
                    "policy",
                    format!(
                        "{:?} places pages in DRAM and PCM tiers: give a [sim.tiers] section (--pcm-share)",
                        cfg.policy
                    ),
                ))
            }
            None => None,
        };
        Ok(Resolved { given: cfg.clone(), common, tier_models })
    }

    /// The swap backend: a page run always has a swap device (`Resolved::new` refuses otherwise).
    pub fn backend(&self) -> &dyn SwapBackend {
        self.common.swap.backend.as_deref().expect("a page run has a swap device (checked in Resolved::new)")
    }

    /// The plan for a trace of `footprint` distinct pages.
    pub fn at(self, footprint: u64) -> Result<Plan> {
        let cfg = &self.given;
        let frames = cfg.memory.to_pages(cfg.page_size, footprint);
        if frames == 0 {
            return Err(Error::config(
                "memory",
                format!("{} is less than one {}-byte page", cfg.memory, cfg.page_size),
            ));
        }
        if frames > u32::MAX as u64 {
            return Err(Error::config("memory", format!("{frames} frames is more than mobmem models")));
        }
        let swap_pages = cfg.swap_size.map(|s| s.to_pages(cfg.page_size, footprint));
        let tiers = match (&cfg.tiers, &self.tier_models) {
            (Some(t), Some((dram, pcm))) => {
                let (dram_frames, pcm_frames) = t.split(frames);
                Some(ResolvedTiers {
                    pcm_share: t.pcm_share,
                    dram_frames,
                    pcm_frames,
                    access_bytes: t.access_bytes,
                    promote_on_hit: t.promote_on_hit,
                    dram: dram.clone(),
                    pcm: pcm.clone(),
                })
            }
            _ => None,
        };
        Ok(Plan { resolved: self, frames, swap_pages, tiers })
    }
}

/// What PCM tiers do not model: zram (it takes DRAM frames), other swap semantics, admissions,
/// Direct Read, reclaim batches, and flat policies' `promote_on_hit = false` for tier-aware ones.
fn check_tiers(cfg: &SimConfig, effects: &SwapEffects, semantics: SwapSemantics) -> Result<()> {
    let refuse = |field: &str, why: String| Err(Error::config(field, why));
    if effects.compression_ratio.is_some() {
        return refuse(
            "swap",
            format!("{:?} is zram, which takes DRAM frames; zram is not modelled with PCM tiers", cfg.swap),
        );
    }
    if semantics != SwapSemantics::LINUX {
        let why = "a swap copy dropped at swap-in and anon_first_touch = \"swap\" are not modelled with PCM tiers";
        return refuse("swap_cache", why.into());
    }
    if cfg.swap_admission != crate::swap::admission::DEFAULT {
        let why =
            format!("{:?} is not modelled with PCM tiers (swap admissions run on flat memory)", cfg.swap_admission);
        return refuse("swap_admission", why);
    }
    if cfg.direct_read {
        let why = "Direct Read maps swap pages in place beside DRAM; it is not modelled with PCM tiers";
        return refuse("direct_read", why.into());
    }
    if cfg.reclaim_batch != 1 {
        let why = "tiers move pages down one at a time; a reclaim batch is not modelled with PCM tiers";
        return refuse("reclaim_batch", why.into());
    }
    if cfg.tiers.as_ref().is_some_and(|t| !t.promote_on_hit) && policy::hybrid::NAMES.contains(&cfg.policy.as_str()) {
        let why =
            format!("{:?} places pages by its own rules; promote_on_hit applies to flat policies on tiers", cfg.policy);
        return refuse("tiers.promote_on_hit", why);
    }
    Ok(())
}

impl Plan {
    pub fn given(&self) -> &SimConfig {
        &self.resolved.given
    }

    /// The swap device.
    pub fn swap(&self) -> &Device {
        self.resolved.backend().device()
    }

    /// The config echo of a result.
    pub fn echo(&self) -> ResolvedConfig {
        let r = &self.resolved;
        ResolvedConfig {
            given: r.given.clone(),
            params: r.common.params.clone(),
            frames: self.frames,
            swap: self.swap().clone(),
            storage: r.common.swap.storage.clone(),
            swap_pages: self.swap_pages,
            swap_admission_params: r.common.admission_params.clone(),
            swap_cache: r.common.swap.semantics.swap_cache,
            tiers: self.tiers.clone(),
        }
    }
}

/// The configuration a run used: the knobs as given, with what they resolved to in place of
/// names, shares and partial tables. Serialized as one flat record (a knob added to `SimConfig`
/// appears here with no edit).
#[derive(Debug, Clone)]
pub struct ResolvedConfig {
    pub given: SimConfig,
    /// The policy's parameters, defaults filled in.
    pub params: serde_json::Value,
    pub frames: u64,
    pub swap: Device,
    pub storage: Device,
    /// Swap capacity in pages; None = unlimited.
    pub swap_pages: Option<u64>,
    /// The admission's parameters, defaults filled in.
    pub swap_admission_params: serde_json::Value,
    /// Whether swap-ins kept their swap copy (the `swap_cache` setting resolved on the device).
    pub swap_cache: bool,
    pub tiers: Option<ResolvedTiers>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct ResolvedFields<'a> {
    params: &'a serde_json::Value,
    frames: u64,
    swap: &'a Device,
    storage: &'a Device,
    swap_pages: Option<u64>,
    swap_admission_params: &'a serde_json::Value,
    swap_cache: bool,
    tiers: &'a Option<ResolvedTiers>,
}

impl Serialize for ResolvedConfig {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut out = object::<_, S::Error>(&self.given)?;
        out.extend(object::<_, S::Error>(&ResolvedFields {
            params: &self.params,
            frames: self.frames,
            swap: &self.swap,
            storage: &self.storage,
            swap_pages: self.swap_pages,
            swap_admission_params: &self.swap_admission_params,
            swap_cache: self.swap_cache,
            tiers: &self.tiers,
        })?);
        out.serialize(s)
    }
}

/// The echo's schema: `SimConfig`'s, with the resolved fields' in place of the names they resolve.
impl schemars::JsonSchema for ResolvedConfig {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ResolvedConfig".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut out = SimConfig::json_schema(g);
        let resolved = ResolvedFields::json_schema(g);
        let about = "The configuration a run used: the knobs as given, with what they resolved to in place of \
                     names, shares and partial tables.";
        out.insert("description".into(), about.into());
        for key in ["properties", "required"] {
            let (Some(into), Some(from)) = (out.get(key).cloned(), resolved.get(key)) else { continue };
            let merged = match (into, from) {
                (serde_json::Value::Object(mut a), serde_json::Value::Object(b)) => {
                    a.extend(b.clone());
                    serde_json::Value::Object(a)
                }
                (serde_json::Value::Array(mut a), serde_json::Value::Array(b)) => {
                    a.extend(b.iter().filter(|v| !a.contains(v)).cloned().collect::<Vec<_>>());
                    serde_json::Value::Array(a)
                }
                (a, _) => a,
            };
            out.insert(key.into(), merged);
        }
        out
    }
}

/// `v` as a JSON object.
fn object<T: Serialize, E: serde::ser::Error>(
    v: &T,
) -> std::result::Result<serde_json::Map<String, serde_json::Value>, E> {
    match serde_json::to_value(v).map_err(E::custom)? {
        serde_json::Value::Object(m) => Ok(m),
        other => Err(E::custom(format!("a config serialized to {other}, not a table"))),
    }
}

/// The tiers a run used.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ResolvedTiers {
    pub pcm_share: f64,
    pub dram_frames: u64,
    pub pcm_frames: u64,
    pub access_bytes: u64,
    pub promote_on_hit: bool,
    pub dram: TierModel,
    pub pcm: TierModel,
}

// Here, not in config.rs: checking a config is resolving it, and the plan is above the settings.
impl SimConfig {
    /// Checks everything a run resolves before it knows its trace (`plan::resolve` does the rest).
    pub fn validate(&self, catalog: &Catalog) -> Result<()> {
        Resolved::new(self, catalog).map(|_| ())
    }
}
