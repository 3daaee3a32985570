"""A progress line on a terminal: what a long command is doing while it works (runs made, seconds
spent), on stderr, redrawn each second and cleared at the end; nothing when stderr is not a
terminal (a pipe, a file, a test), so that output stays what the command prints."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def ticker(label: str, count: Callable[[], int], what: str = "runs", every_s: float = 1.0) -> Iterator[None]:
    """While inside, ``label: N runs, T s`` on stderr when it is a terminal (``count()`` gives N)."""
    if not sys.stderr.isatty():
        yield
        return
    start = time.monotonic()
    stop = threading.Event()

    def draw() -> None:
        while not stop.wait(every_s):
            sys.stderr.write(f"\r{label}: {count():,} {what}, {time.monotonic() - start:.0f} s\x1b[K")
            sys.stderr.flush()

    t = threading.Thread(target=draw, name="mobmem-progress", daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def wrote(what: str, path: object) -> None:
    """Says on stderr which file a command wrote (``--report``, ``--plot``)."""
    print(f"{what}: wrote {path}", file=sys.stderr)
