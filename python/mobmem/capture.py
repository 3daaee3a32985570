"""``mobmem capture``: a program's page accesses, the way the SPO-CLOCK paper captured its apps —
under Valgrind's Lackey tool (``--trace-mem=yes``: every instruction fetch, load and store) — streamed
through mobmem's Lackey reader straight into a trace, with no text file in between: Lackey writes to
an anonymous pipe that the reader drains as the program runs. The trace keeps Lackey's split into
instruction fetches (I), loads (R) and stores (W); a modify (M) is a load then a store.

Valgrind is Debian's ``valgrind`` package (``make capture-deps`` installs it). A program runs some
50–100 times slower under Lackey; keep captured runs short.
"""

from __future__ import annotations

import os
import shutil
import subprocess
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


def capture(cmd: Sequence[str], *, stdout: str | None = None, cwd: str | None = None) -> tuple[Trace, int]:
    """Runs `cmd` under Lackey and returns its trace and the program's exit status. The program's
    standard output goes to `stdout` (a file path) or nowhere; its standard error is inherited."""
    from .api import Trace

    if not cmd:
        raise MobmemError("capture: no command given (mobmem capture -o OUT -- CMD ARGS…)")
    if shutil.which(cmd[0]) is None and not os.path.exists(cmd[0]):
        raise MobmemError(f"capture: {cmd[0]!r} is not a program on PATH or a file")
    exe = valgrind()
    try:
        out = open(stdout, "wb") if stdout else subprocess.DEVNULL  # closed below
    except OSError as e:
        from .errors import MobmemIOError

        raise MobmemIOError(f"{stdout}: cannot write the program's output there ({e.strerror})") from None
    # Lackey writes to an anonymous pipe (its --log-fd): nothing is ever on disk, so nothing is left
    # behind however this process ends (even by kill -9). The reader sees the end of the pipe when
    # valgrind exits, or dies before writing anything; a valgrind whose reader died gets SIGPIPE.
    r, w = os.pipe()
    try:
        try:
            proc = subprocess.Popen(
                [exe, *LACKEY, f"--log-fd={w}", "--", *cmd],
                stdout=out,
                stdin=subprocess.DEVNULL,
                cwd=cwd,
                pass_fds=(w,),
                preexec_fn=_dies_with_parent(),
            )
        finally:
            os.close(w)
        try:
            # Reads until valgrind closes it at exit.
            trace = Trace.open(f"/proc/self/fd/{r}", "lackey")
        except MobmemError as e:
            proc.kill()
            raise MobmemError(
                f"capture: {' '.join(cmd)!r} under valgrind (exit status {proc.wait()}): Lackey's output: {e}"
            ) from None
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        status = proc.wait()
    finally:
        os.close(r)
        if stdout and not isinstance(out, int):
            out.close()
    if len(trace) == 0:
        raise MobmemError(f"capture: {' '.join(cmd)!r} left no accesses (valgrind exited with {status})")
    return trace, status
