"""The data that ships inside the package (``mobmem/data``), so that an installed wheel has it as a
checkout does: the demo's real trace (sqlite3 under Valgrind Lackey), the real captures
(``captures/``) and the app-like corpus (``corpus/``, made by captures/make_corpus.py). In a
checkout, ``data/`` and ``tests/data/captures`` link to ``captures/``, ``tests/data/corpus`` to
``corpus/``.

(`os.path`, not `pathlib`: the demo command imports this, and pathlib took 5 ms of every start.)"""

from __future__ import annotations

import os

#: The package's data directory.
DIR = os.path.join(os.path.dirname(os.path.realpath(__file__)), "data")


def path(*parts: str) -> str:
    """A file or directory of the bundled data: ``path("captures")``."""
    return os.path.join(DIR, *parts)
