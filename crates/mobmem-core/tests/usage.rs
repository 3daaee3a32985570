//! App-usage traces on the real logs of ../shared/data/appusage (ignored, with the reason, where
//! that is absent: see build.rs).

use mobmem_core::system::UsageTrace;
use std::path::PathBuf;

fn shared(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/appusage").join(name);
    p.exists().then_some(p)
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data/appusage is not beside this checkout")]
fn real_users_match_the_datasets_own_statistics() {
    let launches = shared("launches_all_users.csv.gz").expect("../shared/data/appusage/launches_all_users.csv.gz");
    let stats = shared("user_stats.csv").expect("../shared/data/appusage/user_stats.csv");
    let text = std::fs::read_to_string(stats).unwrap();
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (user, n, distinct, reuse, stack) = (f[0], f[2], f[3], f[4], f[5]);
        let t = UsageTrace::load(&launches, Some(user)).unwrap();
        let s = t.stats();
        assert_eq!(s.launches.to_string(), n, "{user}");
        assert_eq!(s.distinct_apps.to_string(), distinct, "{user}");
        assert!((s.avg_reuse_distance_launches - reuse.parse::<f64>().unwrap()).abs() < 1e-3, "{user}");
        assert!((s.avg_reuse_distance_apps - stack.parse::<f64>().unwrap()).abs() < 1e-3, "{user}");
        checked += 1;
    }
    assert!(checked >= 6);
}
