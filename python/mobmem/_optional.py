"""Imports of the third-party packages mobmem draws and tabulates with, each with a clear error when
it is missing: pandas and matplotlib are dependencies of the base install (DataFrames, figures and
HTML reports are core features), pyarrow and Dask are extras. A broken environment still gets a
message with the install command (exit code 3), never a traceback."""

from __future__ import annotations

import importlib
from types import ModuleType

#: What to install for each module (a pip requirement).
INSTALL = {
    "pandas": "pandas>=2",
    "matplotlib": "matplotlib>=3.10",
    "matplotlib.pyplot": "matplotlib>=3.10",
    "pyarrow": "pyarrow>=14",
    "dask.distributed": "dask[distributed]>=2024.1",
}


def need(module: str, what: str) -> ModuleType:
    """``module`` imported, or :class:`~mobmem.ConfigError` saying that ``what`` needs it and how
    to install it (also when the installed one is older than the version it needs)."""
    req = INSTALL.get(module, module)
    try:
        mod = importlib.import_module(module)
    except ImportError:
        from .errors import ConfigError

        raise ConfigError(f"{what} needs {module.split('.')[0]}: pip install '{req}'", module) from None
    if ">=" in req:
        found = str(getattr(importlib.import_module(module.split(".")[0]), "__version__", ""))
        if found and _release(found) < _release(req.split(">=")[1]):
            from .errors import ConfigError

            raise ConfigError(f"{what} needs {req} (found {found}): pip install --upgrade '{req}'", module)
    return mod


def _release(version: str) -> tuple[int, ...]:
    """A version's leading numbers: ``3.10.1rc1`` → (3, 10, 1)."""
    import re

    return tuple(int(x) for x in re.findall(r"\d+", version.split("+")[0])[:3])
