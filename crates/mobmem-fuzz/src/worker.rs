//! Inputs run in a worker process under an address-space limit, one at a time, so that whatever an
//! input does — abort on an allocation, loop, panic — the supervisor sees it, keeps the input and
//! starts a new worker. Requests and answers are length-prefixed frames on the worker's stdin and
//! stdout; its stderr goes to a file whose tail explains a crash.

use crate::targets::{Ctx, TARGETS};
use mobmem_core::Error;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// What one input did.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Read (and run) without complaint.
    Accepted,
    /// Refused with a clear error: what a user would see.
    Refused(String),
    /// A failure of mobmem: `kind` is crash, hang, panic, invariant or unnamed.
    Failed { kind: &'static str, detail: String },
}

const OK: u8 = 0;
const REFUSED: u8 = 1;
const PANIC: u8 = 2;
const INVARIANT: u8 = 3;
const UNNAMED: u8 = 4;

fn read_frame(r: &mut impl Read) -> io::Result<(u8, Vec<u8>)> {
    let mut head = [0u8; 5];
    r.read_exact(&mut head)?;
    let n = u32::from_le_bytes(head[1..5].try_into().expect("4 bytes")) as usize;
    let mut body = vec![0u8; n];
    r.read_exact(&mut body)?;
    Ok((head[0], body))
}

fn write_frame(w: &mut impl Write, tag: u8, body: &[u8]) -> io::Result<()> {
    w.write_all(&[tag])?;
    w.write_all(&(body.len() as u32).to_le_bytes())?;
    w.write_all(body)?;
    w.flush()
}

/// The worker's loop (`mobmem-fuzz worker`): runs each input it is sent and answers.
pub fn serve() -> io::Result<()> {
    let dir = std::env::temp_dir().join(format!("mobmem-fuzz-worker-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let ctx = Ctx::new(&dir).map_err(|e| io::Error::other(e.to_string()))?;
    // Panics are caught and answered; the default hook's message would only repeat it.
    std::panic::set_hook(Box::new(|_| {}));
    let (mut input, mut output) = (io::stdin().lock(), io::stdout().lock());
    let result = loop {
        let (target, bytes) = match read_frame(&mut input) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break Ok(()),
            Err(e) => break Err(e),
        };
        let t = &TARGETS[target as usize];
        let path = dir.join(&t.file);
        std::fs::write(&path, &bytes)?;
        let run = &t.run;
        let (tag, msg) = judge(&path, std::panic::catch_unwind(|| run(&path, &ctx)));
        write_frame(&mut output, tag, msg.as_bytes())?;
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// A refusal must be typed and, for a malformed file, name the file it is about.
fn judge(path: &Path, r: std::thread::Result<mobmem_core::Result<()>>) -> (u8, String) {
    match r {
        Ok(Ok(())) => (OK, String::new()),
        Ok(Err(Error::Invariant(m))) => (INVARIANT, m),
        Ok(Err(e @ Error::TraceFormat { .. })) if !matches!(&e, Error::TraceFormat { path: p, .. } if p == path) => {
            (UNNAMED, format!("the error does not name the input: {e}"))
        }
        Ok(Err(e)) if e.to_string().trim().is_empty() => (UNNAMED, "empty error message".into()),
        Ok(Err(e)) => (REFUSED, e.to_string()),
        Err(p) => {
            let what = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            (PANIC, what)
        }
    }
}

/// A running worker, seen from the supervisor.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Option<(u8, Vec<u8>)>>,
    stderr: PathBuf,
    limit_bytes: u64,
}

impl Worker {
    /// Starts `mobmem-fuzz worker` with an address-space limit of `limit_bytes`.
    pub fn start(limit_bytes: u64, stderr: PathBuf) -> io::Result<Worker> {
        let exe = std::env::current_exe()?;
        let err = std::fs::File::create(&stderr)?;
        let mut cmd = Command::new(exe);
        cmd.arg("worker").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(err);
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let lim = limit_bytes as libc::rlim_t;
            // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
            unsafe {
                cmd.pre_exec(move || {
                    let r = |res, v| libc::setrlimit(res, &libc::rlimit { rlim_cur: v, rlim_max: v });
                    if r(libc::RLIMIT_AS, lim) != 0 || r(libc::RLIMIT_CORE, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || loop {
            match read_frame(&mut stdout) {
                Ok(f) => {
                    if tx.send(Some(f)).is_err() {
                        return;
                    }
                }
                Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
            }
        });
        Ok(Worker { child, stdin, answers, stderr, limit_bytes })
    }

    /// Runs one input of `target`; `None` when the worker is gone (crash or hang) and must be
    /// replaced — the verdict then says what happened.
    pub fn run(&mut self, target: usize, input: &[u8], timeout: Duration) -> (Verdict, bool) {
        if write_frame(&mut self.stdin, target as u8, input).is_err() {
            return (self.crashed(), false);
        }
        match self.answers.recv_timeout(timeout) {
            Ok(Some((tag, msg))) => {
                let msg = String::from_utf8_lossy(&msg).into_owned();
                let v = match tag {
                    OK => Verdict::Accepted,
                    REFUSED => Verdict::Refused(msg),
                    PANIC => Verdict::Failed { kind: "panic", detail: msg },
                    INVARIANT => Verdict::Failed { kind: "invariant", detail: msg },
                    _ => Verdict::Failed { kind: "unnamed", detail: msg },
                };
                (v, true)
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => (self.crashed(), false),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                (Verdict::Failed { kind: "hang", detail: format!("no answer in {} s", timeout.as_secs_f64()) }, false)
            }
        }
    }

    fn crashed(&mut self) -> Verdict {
        let status = self.child.wait().map(|s| format!("{s}")).unwrap_or_else(|e| e.to_string());
        let tail = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        let tail: Vec<&str> = tail.lines().rev().take(3).collect();
        let memory = tail.iter().any(|l| l.contains("memory allocation"));
        Verdict::Failed {
            kind: if memory { "memory" } else { "crash" },
            detail: format!(
                "worker {status} (address space limit {} MiB): {}",
                self.limit_bytes >> 20,
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            ),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Largest resident size any finished worker reached, in bytes (getrusage of the children).
pub fn peak_child_rss() -> u64 {
    // SAFETY: getrusage writes into the struct we pass.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) == 0 {
            u.ru_maxrss as u64 * 1024
        } else {
            0
        }
    }
}
