//! Independent runs on several threads (a grid, a miniature curve's sizes, a phone's jobs).

use crate::error::{Error, Result};

/// Computes `f(0..n)` on `threads` threads (0 = all cores), results in index order.
pub(crate) fn parallel<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> Result<T> + Sync) -> Vec<Result<T>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads =
        if threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { threads }
            .min(n.max(1));
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Result<T>>>> = Mutex::new((0..n).map(|_| None).collect());
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            break;
        }
        let r = f(i);
        out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
    };
    std::thread::scope(|s| {
        // A thread the system will not start (its limit on threads or memory) is not an abort:
        // the ones started take its share, and with none this thread does the work.
        let started = (0..threads).take_while(|_| std::thread::Builder::new().spawn_scoped(s, work).is_ok()).count();
        if started == 0 {
            work();
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(Error::Invariant("a parallel run did not finish".into()))))
        .collect()
}
