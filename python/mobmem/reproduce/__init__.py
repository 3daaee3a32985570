"""Reproductions of the papers' headline results: each is one module with a ``run(args)`` and an
``add_arguments(parser)``, registered in ``REPRODUCTIONS``."""

from __future__ import annotations

from . import dr_swap, spo_clock

#: name → module; ``mobmem reproduce NAME`` runs it.
REPRODUCTIONS = {"dr-swap": dr_swap, "spo-clock": spo_clock}
