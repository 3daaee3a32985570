//! What the machine can hold. Sizes that come from a user (an access count to generate, a scale, a
//! memory size) are checked against the memory available before anything is allocated, so that an
//! absurd value is a config error that says what it would need, never an allocation abort that
//! takes a notebook's kernel with it. Sizes read from files are bounded by the file itself (see the
//! readers); these checks are for what a run builds.

use crate::error::{Error, Result};

/// Memory this process can have now, in bytes: the least of what the system says it can give
/// (`MemAvailable`), what its container may still use (cgroup v2 `memory.max − memory.current`)
/// and its address-space limit (`ulimit -v`, less what is mapped already). `None` where none of
/// them is known (then only the allocator says no).
pub fn available_bytes() -> Option<u64> {
    let meminfo = || -> Option<u64> {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()?.checked_mul(1024)
    };
    let cgroup = || -> Option<u64> {
        let read = |f: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{f}")).ok()?.trim().parse::<u64>().ok();
        Some(read("memory.max")?.saturating_sub(read("memory.current").unwrap_or(0)))
    };
    let address_space = || -> Option<u64> {
        let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
        let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
        let soft: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let vm = status.lines().find(|l| l.starts_with("VmSize:"))?;
        let used = vm.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024;
        Some(soft.saturating_sub(used))
    };
    [meminfo(), cgroup(), address_space()].into_iter().flatten().min()
}

/// Human-readable bytes for messages: `1.5 GiB`.
pub fn show_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Errs (as a config error of `field`) when `count` items of `item_bytes` each — `what` says
/// what they are — cannot fit in the memory available now.
pub fn ensure_fits(field: &str, what: &str, count: u64, item_bytes: u64) -> Result<()> {
    let need = count.checked_mul(item_bytes);
    let too_big = |have: String| {
        let need = need.map_or_else(|| "more than 2^64 bytes".to_string(), show_bytes);
        Error::config(field, format!("{count} {what} need {need} of memory; {have}"))
    };
    let Some(need) = need.filter(|&n| n <= isize::MAX as u64) else {
        return Err(too_big("no machine can hold that".to_string()));
    };
    match available_bytes() {
        Some(avail) if need > avail => Err(too_big(format!("this process can have {} now", show_bytes(avail)))),
        _ => Ok(()),
    }
}

/// A vector with room for `n` items, or a config error of `field` when the memory is not there
/// (checked against the machine first, then asked of the allocator without aborting).
pub fn vec_with_capacity<T>(field: &str, what: &str, n: u64) -> Result<Vec<T>> {
    ensure_fits(field, what, n, std::mem::size_of::<T>() as u64)?;
    let mut v = Vec::new();
    v.try_reserve_exact(n as usize).map_err(|_| {
        Error::config(
            field,
            format!("{n} {what}: the allocator refused {}", show_bytes(n * std::mem::size_of::<T>() as u64)),
        )
    })?;
    Ok(v)
}

/// Most a per-operation cost (ns, nJ, mW) may be: 10^18 (a page taking 32 years). Totals are
/// sums of at most 2^64 operations, so they stay below 2·10^37 and finite: a larger value would
/// print `inf` or `null` where a time or an energy belongs. Nothing physical comes near it.
pub const MAX_PER_OP: f64 = 1e18;

/// `v` if it is a finite cost from 0 to `MAX_PER_OP`, else a config error naming `field`.
pub fn per_op(field: impl Into<String>, v: f64) -> Result<f64> {
    if (0.0..=MAX_PER_OP).contains(&v) {
        return Ok(v);
    }
    let why = if v.is_finite() && v > 0.0 {
        format!("{v:e} is more than mobmem sums without overflow ({MAX_PER_OP:e} per operation)")
    } else {
        format!("{v} is not a cost ≥ 0")
    };
    Err(Error::config(field, why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_sizes_are_config_errors_that_say_what_they_need() {
        let e = ensure_fits("gen.accesses", "accesses", u64::MAX, 4).unwrap_err().to_string();
        assert!(e.contains("gen.accesses") && e.contains("no machine"), "{e}");
        let e = ensure_fits("gen.accesses", "accesses", 1 << 60, 4).unwrap_err().to_string();
        assert!(e.contains("4096.0 PiB of memory; this process can have"), "{e}");
        assert!(vec_with_capacity::<u32>("x", "items", 1 << 62).is_err());
        assert_eq!(vec_with_capacity::<u32>("x", "items", 1000).unwrap().capacity(), 1000);
        ensure_fits("x", "items", 1000, 4).unwrap();
    }

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(show_bytes(512), "512 B");
        assert_eq!(show_bytes(3 << 29), "1.5 GiB");
    }
}
