//! The app catalog: what each app weighs and how it behaves (`apps.toml`, compiled in; users add or
//! override apps and categories from a TOML file of the same shape). An app's setting comes from
//! its own table, else its category's, else `[defaults]`.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub const BUILTIN: &str = include_str!("apps.toml");

/// Largest app (and file data) the catalog takes, MiB: 1 TiB, so that page counts fit their type.
const MAX_APP_MIB: f64 = 1048576.0;
/// Most foreground page touches per second an app may make (one per µs).
const MAX_TOUCH_RATE: f64 = 1e6;

/// An app, category or defaults table as written: every field optional.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    category: Option<String>,
    size_mib: Option<f64>,
    anon_share: Option<f64>,
    file_mib: Option<f64>,
    cold_start_s: Option<f64>,
    cold_cpu_share: Option<f64>,
    cold_cpu_s: Option<f64>,
    cold_file_share: Option<f64>,
    cold_anon_share: Option<f64>,
    resume_cpu_s: Option<f64>,
    resume_share: Option<f64>,
    resume_write_share: Option<f64>,
    fg_pages_per_s: Option<f64>,
    fg_hot_share: Option<f64>,
    fg_hot_prob: Option<f64>,
    fg_write_share: Option<f64>,
    bg_period_s: Option<f64>,
    bg_pages: Option<u64>,
    bg_adj: Option<i32>,
    source: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    defaults: Option<Spec>,
    #[serde(default)]
    categories: BTreeMap<String, Spec>,
    #[serde(default)]
    apps: BTreeMap<String, Spec>,
    #[serde(default)]
    lists: Vec<AppList>,
}

/// A named list of apps from a paper (`[[lists]]`), in the paper's order.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AppList {
    pub name: String,
    pub apps: Vec<String>,
    #[serde(default)]
    pub source: String,
}

/// An app with every setting resolved (see `apps.toml` for what each means).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppProfile {
    pub name: String,
    pub category: String,
    pub size_mib: f64,
    pub anon_share: f64,
    /// File data the app reads and maps (code, resources, assets), MiB: `size_mib × (1 − anon_share)`
    /// unless given — a cold start may read more file data than stays mapped (asset files).
    pub file_mib: f64,
    /// Measured cold-start time, when the catalog has one.
    pub cold_start_s: Option<f64>,
    pub cold_cpu_s: f64,
    pub cold_file_share: f64,
    pub cold_anon_share: f64,
    pub resume_cpu_s: f64,
    pub resume_share: f64,
    pub resume_write_share: f64,
    pub fg_pages_per_s: f64,
    pub fg_hot_share: f64,
    pub fg_hot_prob: f64,
    pub fg_write_share: f64,
    pub bg_period_s: f64,
    pub bg_pages: u64,
    pub bg_adj: i32,
    pub source: String,
    /// False when the app is not in the catalog and runs with the defaults.
    pub known: bool,
}

impl AppProfile {
    /// Anon and file pages of the app at `page_size` (at least one of each).
    pub fn pages(&self, page_size: u64) -> (u64, u64) {
        let pages = |mib: f64| (mib * 1048576.0 / page_size as f64).round() as u64;
        (pages(self.size_mib * self.anon_share).max(1), pages(self.file_mib).max(1))
    }
}

#[derive(Debug, Clone)]
pub struct AppCatalog {
    defaults: Spec,
    categories: BTreeMap<String, Spec>,
    apps: BTreeMap<String, Spec>,
    lists: Vec<AppList>,
}

fn merge(top: &Spec, under: &Spec) -> Spec {
    macro_rules! m {
        ($($f:ident),*) => { Spec { $($f: top.$f.clone().or_else(|| under.$f.clone())),* } };
    }
    m!(
        category,
        size_mib,
        anon_share,
        file_mib,
        cold_start_s,
        cold_cpu_share,
        cold_cpu_s,
        cold_file_share,
        cold_anon_share,
        resume_cpu_s,
        resume_share,
        resume_write_share,
        fg_pages_per_s,
        fg_hot_share,
        fg_hot_prob,
        fg_write_share,
        bg_period_s,
        bg_pages,
        bg_adj,
        source
    )
}

impl AppCatalog {
    pub fn builtin() -> AppCatalog {
        let mut c = AppCatalog {
            defaults: Spec::default(),
            categories: BTreeMap::new(),
            apps: BTreeMap::new(),
            lists: Vec::new(),
        };
        c.add_toml(BUILTIN, Path::new("<built-in app catalog>")).expect("the built-in app catalog is valid (tested)");
        c
    }

    /// Adds (or overrides, field by field) defaults, categories and apps from TOML text.
    pub fn add_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        let f: File = crate::error::from_toml(origin, text)?;
        // Built on a copy, so that a file with an error changes nothing.
        let mut next = self.clone();
        if let Some(d) = f.defaults {
            next.defaults = merge(&d, &next.defaults);
        }
        for (k, v) in f.categories {
            let old = next.categories.remove(&k).unwrap_or_default();
            next.categories.insert(k, merge(&v, &old));
        }
        for (k, v) in f.apps {
            let old = next.apps.remove(&k).unwrap_or_default();
            next.apps.insert(k, merge(&v, &old));
        }
        for l in f.lists {
            if let Some(unknown) = l.apps.iter().find(|a| !next.apps.contains_key(*a)) {
                return Err(Error::config(
                    format!("{}: lists.{}", origin.display(), l.name),
                    format!("{unknown:?} is not an app of the catalog"),
                ));
            }
            match next.lists.iter_mut().find(|x| x.name == l.name) {
                Some(old) => *old = l,
                None => next.lists.push(l),
            }
        }
        // Every app, category and the defaults must resolve now, so that errors name the file.
        let in_file = |e: Error| match e {
            Error::Config { field, msg } => Error::config(format!("{}: {field}", origin.display()), msg),
            e => e,
        };
        for n in next.apps.keys().map(|s| Some(s.as_str())).chain([None]) {
            next.resolve(n).map_err(in_file)?;
        }
        for k in next.categories.keys() {
            next.profile_of(k, &Spec { category: Some(k.clone()), ..Spec::default() }).map_err(in_file)?;
        }
        *self = next;
        Ok(())
    }

    pub fn load_file(&mut self, path: &Path) -> Result<()> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        self.add_toml(&text, path)
    }

    /// The app list `name` (`[[lists]]`: the papers' app lists).
    pub fn list(&self, name: &str) -> Result<&AppList> {
        self.lists.iter().find(|l| l.name == name).ok_or_else(|| {
            let known: Vec<_> = self.lists.iter().map(|l| l.name.as_str()).collect();
            Error::config("apps", format!("unknown app list {name:?}; known: {}", known.join(", ")))
        })
    }

    /// Every app list, in file order.
    pub fn lists(&self) -> &[AppList] {
        &self.lists
    }

    /// Names of the apps in the catalog.
    pub fn names(&self) -> impl Iterator<Item = &String> {
        self.apps.keys()
    }

    pub fn contains(&self, name: &str) -> bool {
        self.apps.contains_key(name)
    }

    /// The profile of `name`; an app the catalog does not have gets the defaults (`known: false`).
    pub fn get(&self, name: &str) -> Result<AppProfile> {
        self.resolve(Some(name)).map(|mut p| {
            p.name = name.to_string();
            p
        })
    }

    fn resolve(&self, name: Option<&str>) -> Result<AppProfile> {
        match name.and_then(|n| self.apps.get(n)) {
            Some(s) => {
                let mut p = self.profile_of(name.unwrap_or_default(), s)?;
                p.known = true;
                Ok(p)
            }
            None => self.profile_of(name.unwrap_or("defaults"), &Spec::default()),
        }
    }

    fn profile_of(&self, name: &str, app: &Spec) -> Result<AppProfile> {
        let cat_name = app.category.clone().or_else(|| self.defaults.category.clone()).unwrap_or_default();
        let cat = match self.categories.get(&cat_name) {
            Some(c) => c.clone(),
            None if app.category.is_some() => {
                let known: Vec<_> = self.categories.keys().cloned().collect();
                return Err(Error::config(
                    format!("apps.{name:?}.category"),
                    format!("unknown category {cat_name:?}; known: {}", known.join(", ")),
                ));
            }
            None => Spec::default(),
        };
        let s = merge(app, &merge(&cat, &self.defaults));
        let field = |f: &str| format!("apps.{name:?}.{f}");
        let num = |f: &str, v: Option<f64>| -> Result<f64> {
            let v = v.ok_or_else(|| Error::config(field(f), "missing (and no default)"))?;
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::config(field(f), format!("{v:?} must be a finite number ≥ 0")));
            }
            Ok(v)
        };
        let share = |f: &str, v: Option<f64>| -> Result<f64> {
            let v = num(f, v)?;
            if v > 1.0 {
                return Err(Error::config(field(f), format!("{v} is a share: 0–1")));
            }
            Ok(v)
        };
        let size_mib = num("size_mib", s.size_mib)?;
        if size_mib <= 0.0 {
            return Err(Error::config(field("size_mib"), "must be positive"));
        }
        if size_mib > MAX_APP_MIB {
            return Err(Error::config(
                field("size_mib"),
                format!("{size_mib:?} MiB is more than an app can be (≤ 1 TiB)"),
            ));
        }
        let anon_share = share("anon_share", s.anon_share)?;
        // An app's own size sets its file part unless its own table gives file_mib.
        let file_mib = match app.file_mib {
            Some(v) if v > MAX_APP_MIB => {
                return Err(Error::config(
                    field("file_mib"),
                    format!("{v:?} MiB is more than an app can read (≤ 1 TiB)"),
                ))
            }
            Some(v) => num("file_mib", Some(v))?,
            None => size_mib * (1.0 - anon_share),
        };
        let cold_start_s = s.cold_start_s.map(|v| num("cold_start_s", Some(v))).transpose()?;
        let cold_cpu_share = share("cold_cpu_share", s.cold_cpu_share)?;
        // A measured cold start sets the CPU time unless the app's own table gives it.
        let cold_cpu_s = match (app.cold_cpu_s, cold_start_s) {
            (Some(v), _) => num("cold_cpu_s", Some(v))?,
            (None, Some(t)) => t * cold_cpu_share,
            (None, None) => num("cold_cpu_s", s.cold_cpu_s)?,
        };
        let adj = s.bg_adj.ok_or_else(|| Error::config(field("bg_adj"), "missing (and no default)"))?;
        if !crate::trace::procs::valid_adj(adj) || adj < 0 {
            return Err(Error::config(field("bg_adj"), format!("{adj} is not an app's oom_score_adj (0–1000)")));
        }
        // What one launch or one background round may ask for is bounded by what the app has and by
        // a touch rate no phone reaches, so that a run's cost stays that of real work.
        let fg_pages_per_s = num("fg_pages_per_s", s.fg_pages_per_s)?;
        if fg_pages_per_s > MAX_TOUCH_RATE {
            return Err(Error::config(
                field("fg_pages_per_s"),
                format!("{fg_pages_per_s:?} touches per second is more than a CPU makes (≤ {MAX_TOUCH_RATE:?})"),
            ));
        }
        let bg_period_s = num("bg_period_s", s.bg_period_s)?;
        if bg_period_s > 0.0 && bg_period_s < super::phone::MIN_PERIOD_S {
            return Err(Error::config(
                field("bg_period_s"),
                format!("{bg_period_s:?} s: periods are at least 1 ms (0: none)"),
            ));
        }
        let bg_pages = s.bg_pages.unwrap_or(0);
        let most = ((size_mib + file_mib) * 2048.0) as u64;
        if bg_pages > most {
            return Err(Error::config(
                field("bg_pages"),
                format!("{bg_pages} pages per round is more than the app has ({most} at the smallest page size)"),
            ));
        }
        Ok(AppProfile {
            name: name.to_string(),
            category: cat_name,
            size_mib,
            anon_share,
            file_mib,
            cold_start_s,
            cold_cpu_s,
            cold_file_share: share("cold_file_share", s.cold_file_share)?,
            cold_anon_share: share("cold_anon_share", s.cold_anon_share)?,
            resume_cpu_s: num("resume_cpu_s", s.resume_cpu_s)?,
            resume_share: share("resume_share", s.resume_share)?,
            resume_write_share: share("resume_write_share", s.resume_write_share)?,
            fg_pages_per_s,
            fg_hot_share: share("fg_hot_share", s.fg_hot_share)?,
            fg_hot_prob: share("fg_hot_prob", s.fg_hot_prob)?,
            fg_write_share: share("fg_write_share", s.fg_write_share)?,
            bg_period_s,
            bg_pages,
            bg_adj: adj,
            source: s.source.unwrap_or_default(),
            known: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalog_has_the_papers_tables() {
        let c = AppCatalog::builtin();
        let cordy = c.get("Cordy2").unwrap();
        assert!(cordy.known);
        assert_eq!(cordy.size_mib, 45.13);
        assert_eq!(cordy.cold_start_s, Some(13.81));
        assert!((cordy.cold_cpu_s - 13.81 * 0.95).abs() < 1e-9);
        assert_eq!(cordy.category, "game");
        // Category values fill what the app does not say; defaults fill the rest.
        assert_eq!(cordy.anon_share, 0.7);
        assert_eq!(cordy.resume_share, 0.3);
        // Table VI: the ten first loads read 186.91 MB of files for 244.5 MB of execution size.
        assert!((cordy.file_mib - 45.13 * 0.764).abs() < 0.005);
        let (a, f) = cordy.pages(4096);
        assert_eq!((a, f), ((45.13f64 * 0.7 * 256.0).round() as u64, (cordy.file_mib * 256.0).round() as u64));
        let twitter = c.get("Twitter").unwrap();
        assert!((twitter.file_mib - 24.38 * 0.4).abs() < 1e-9);
        assert_eq!(c.get("TaoBao").unwrap().size_mib, 116.0);
        // A2S apps: size from its category, or from a public figure (its source says which).
        let calc = c.get("Calculator").unwrap();
        assert_eq!(calc.size_mib, 12.0);
        let play = c.get("Play Store").unwrap();
        assert_eq!(play.size_mib, c.get("Google Play Store").unwrap().size_mib);
        let unknown = c.get("com.example.app").unwrap();
        assert!(!unknown.known);
        assert_eq!(unknown.size_mib, 40.0);
        // Every app generated usage can name is in the catalog.
        for n in crate::system::usage::a2s_apps() {
            assert!(c.get(&n).unwrap().known, "{n}");
        }
        assert_eq!((crate::system::usage::a2s_apps().len(), crate::system::usage::emmc_apps().len()), (36, 10));
        // Table III: eight lists of five apps, in the paper's order, with the sizes it gives.
        let t3 = crate::system::categories::categories();
        let names: Vec<&str> = t3.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["browser", "news", "multimedia", "social", "gaming", "shopping", "mix1", "mix2"]);
        assert!(t3.iter().all(|(_, apps)| apps.len() == 5));
        assert_eq!(t3[4].1[2], ("Boom Beach".to_string(), 107.0));
        // A list may name only apps of the catalog; the error names the file and the list.
        let e = c.clone().add_toml("[[lists]]\nname = \"x\"\napps = [\"Nope\"]\n", Path::new("l.toml"));
        let e = e.unwrap_err().to_string();
        assert!(e.contains("l.toml") && e.contains("lists.x") && e.contains("Nope"), "{e}");
    }

    #[test]
    fn user_files_override_field_by_field_and_errors_name_the_field() {
        let mut c = AppCatalog::builtin();
        c.add_toml("[apps.Cordy2]\nresume_cpu_s = 2.0\n[apps.Mine]\ncategory = \"tools\"\n", Path::new("u.toml"))
            .unwrap();
        let p = c.get("Cordy2").unwrap();
        assert_eq!((p.resume_cpu_s, p.size_mib), (2.0, 45.13));
        assert_eq!(c.get("Mine").unwrap().size_mib, 12.0);
        let e = c.add_toml("[apps.X]\nanon_share = 1.5\n", Path::new("u.toml")).unwrap_err().to_string();
        assert!(e.contains("u.toml") && e.contains("anon_share") && e.contains("1.5"), "{e}");
        let e = c.add_toml("[apps.Y]\ncategory = \"nope\"\n", Path::new("v.toml")).unwrap_err().to_string();
        assert!(e.contains("unknown category") && e.contains("v.toml"), "{e}");
        let e = c.add_toml("[apps.Z]\nsize = 3\n", Path::new("w.toml")).unwrap_err().to_string();
        assert!(e.contains("w.toml:2") && e.contains("size"), "{e}");
        let e = c.add_toml("[apps.W]\nbg_adj = -5\n", Path::new("w.toml")).unwrap_err().to_string();
        assert!(e.contains("bg_adj"), "{e}");
    }
}
