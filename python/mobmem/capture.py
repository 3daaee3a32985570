"""``mobmem capture``: a program's page accesses, the way the SPO-CLOCK paper captured its apps —
under Valgrind's Lackey tool (``--trace-mem=yes``: every instruction fetch, load and store) — streamed
through mobmem's Lackey reader straight into a trace, with no text file in between: Lackey writes to
a named pipe that the reader drains as the program runs. The trace keeps Lackey's split into
instruction fetches (I), loads (R) and stores (W); a modify (M) is a load then a store.

Valgrind is Debian's ``valgrind`` package (``make capture-deps`` installs it). A program runs some
50–100 times slower under Lackey; keep captured runs short.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .errors import MobmemError

if TYPE_CHECKING:
    from .api import Trace

# No gdbserver: it would leave its pipes in the temporary folder were valgrind killed.
LACKEY = ("--tool=lackey", "--trace-mem=yes", "--vgdb=no")


def valgrind() -> str:
    """The valgrind executable on PATH, or a clear error saying how to install it."""
    exe = shutil.which("valgrind")
    if exe is None:
        raise MobmemError(
            "valgrind is not installed: `make capture-deps` installs Debian's valgrind (or apt-get install valgrind)"
        )
    return exe


def _unblock(proc: subprocess.Popen[bytes], where: list[str], done: threading.Event) -> None:
    """Once valgrind has exited, opens and closes the pipe's writing end (at ``where[0]``: its
    path, then this process's descriptor of it) until the reader is done, so that a valgrind that
    died before opening its log cannot leave a reader waiting forever."""
    proc.wait()
    while not done.is_set():
        try:
            os.close(os.open(where[0], os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass  # no reader yet: try again
        done.wait(0.05)


def _dies_with_parent() -> Callable[[], object] | None:
    """A function for ``preexec_fn`` that makes the child end with this process (Linux's
    parent-death signal), resolved before the fork so that the child only makes the call."""
    import ctypes
    import signal

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    kill = int(signal.SIGKILL)
    return lambda: prctl(1, kill, 0, 0, 0)  # PR_SET_PDEATHSIG


def _remove(d: str) -> None:
    shutil.rmtree(d, ignore_errors=True)


def capture(cmd: Sequence[str], *, stdout: str | None = None, cwd: str | None = None) -> tuple[Trace, int]:
    """Runs `cmd` under Lackey and returns its trace and the program's exit status. The program's
    standard output goes to `stdout` (a file path) or nowhere; its standard error is inherited."""
    from .api import Trace

    if not cmd:
        raise MobmemError("capture: no command given (mobmem capture -o OUT -- CMD ARGS…)")
    if shutil.which(cmd[0]) is None and not os.path.exists(cmd[0]):
        raise MobmemError(f"capture: {cmd[0]!r} is not a program on PATH or a file")
    exe = valgrind()
    # The pipe lives in a folder of its own only until both ends are open: then both go, so that
    # nothing is left behind however this process ends (even by kill -9). The reader reads the
    # pipe through this process's open descriptor; a valgrind whose reader died gets SIGPIPE.
    try:
        out = open(stdout, "wb") if stdout else subprocess.DEVNULL  # closed below
    except OSError as e:
        from .errors import MobmemIOError

        raise MobmemIOError(f"{stdout}: cannot write the program's output there ({e.strerror})") from None
    d = tempfile.mkdtemp(prefix="mobmem-capture-")
    fifo = os.path.join(d, "lackey")
    fd = -1
    try:
        os.mkfifo(fifo)
        proc = subprocess.Popen(
            [exe, *LACKEY, f"--log-file={fifo}", "--", *cmd],
            stdout=out,
            stdin=subprocess.DEVNULL,
            cwd=cwd,
            preexec_fn=_dies_with_parent(),
        )
        done = threading.Event()
        where = [fifo]
        threading.Thread(target=_unblock, args=(proc, where, done), daemon=True).start()
        try:
            # Blocks until valgrind opens the pipe (or has died: `_unblock`).
            fd = os.open(fifo, os.O_RDONLY)
            where[0] = f"/proc/self/fd/{fd}"
            _remove(d)
            # Reads until valgrind closes it at exit.
            trace = Trace.open(f"/proc/self/fd/{fd}", "lackey")
        except MobmemError as e:
            proc.kill()
            raise MobmemError(
                f"capture: {' '.join(cmd)!r} under valgrind (exit status {proc.wait()}): Lackey's output: {e}"
            ) from None
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        finally:
            done.set()
        status = proc.wait()
    finally:
        if fd >= 0:
            os.close(fd)
        _remove(d)
        if stdout and not isinstance(out, int):
            out.close()
    if len(trace) == 0:
        raise MobmemError(f"capture: {' '.join(cmd)!r} left no accesses (valgrind exited with {status})")
    return trace, status
