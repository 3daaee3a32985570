"""Ground truth this machine can run: its Linux kernel, under a memory cgroup's limit with zram
swap, beside mobmem's prediction of the same program (``mobmem kernel-check``; docs/CALIBRATION.md)."""

from .check import COUNTERS, Check, KernelRun, Row, kernel_check, kernel_runs, predict
from .host import CGROUP, Host, KernelCheckError

__all__ = [
    "CGROUP",
    "COUNTERS",
    "Check",
    "Host",
    "KernelCheckError",
    "KernelRun",
    "Row",
    "kernel_check",
    "kernel_runs",
    "predict",
]
