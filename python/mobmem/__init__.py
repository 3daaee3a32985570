"""mobmem: a fast, trace-driven simulator of a smartphone's memory system.

>>> import mobmem
>>> t = mobmem.Trace.generate("angrybirds", accesses=200_000)
>>> r = mobmem.simulate(t, policy="clock", memory="10%")
>>> r.faults > 0
True
"""

from . import errors
from ._core import __version__
from .api import (
    RunResult,
    Trace,
    compare,
    devices,
    grid,
    hybrid_policies,
    hybrid_workloads,
    policies,
    presets,
    run_configs,
    run_file,
    simulate,
    simulate_stream,
    swap_backends,
    swap_energy,
    tiers,
    trace_formats,
)
from .config import Config
from .errors import (
    ConfigError,
    InvariantError,
    MobmemError,
    MobmemIOError,
    OutOfMemoryError,
    TraceFormatError,
    TraceNotFoundError,
)
from .phone import PhoneResult, phone_grid, simulate_phone

__all__ = [
    "Config",
    "ConfigError",
    "InvariantError",
    "MobmemError",
    "MobmemIOError",
    "OutOfMemoryError",
    "PhoneResult",
    "RunResult",
    "Trace",
    "TraceFormatError",
    "TraceNotFoundError",
    "__version__",
    "compare",
    "devices",
    "errors",
    "grid",
    "hybrid_policies",
    "hybrid_workloads",
    "phone_grid",
    "policies",
    "presets",
    "run_configs",
    "run_file",
    "simulate",
    "simulate_phone",
    "simulate_stream",
    "swap_backends",
    "swap_energy",
    "tiers",
    "trace_formats",
]
