"""The DR. Swap paper's numbers that ``mobmem reproduce dr-swap`` prints beside ours (``dr_swap``)
and its "Why ours differs" reads (``dr_swap_why``): a leaf, so neither imports the other."""

from __future__ import annotations

#: Table IV of the paper: category → swap MB → (DR disabled, DR enabled, reduction %).
PAPER_TABLE_IV: dict[str, dict[int, tuple[int, int, float]]] = {
    "browser": {128: (6017, 1771, 70.57), 256: (5830, 1224, 79.01), 512: (3172, 1102, 65.26)},
    "news": {128: (1857, 428, 76.95), 256: (2200, 449, 79.59), 512: (1945, 342, 82.42)},
    "multimedia": {128: (3038, 1438, 52.67), 256: (2172, 807, 62.85), 512: (1056, 475, 55.02)},
    "social": {128: (4295, 1150, 73.22), 256: (2137, 450, 78.94), 512: (2086, 583, 72.05)},
    "gaming": {128: (2174, 711, 67.30), 256: (1590, 515, 67.61), 512: (1795, 592, 67.02)},
    "shopping": {128: (2382, 864, 63.73), 256: (765, 264, 65.49), 512: (1136, 385, 66.11)},
    "mix1": {128: (3280, 1145, 65.09), 256: (2685, 1014, 62.23), 512: (1836, 796, 56.64)},
    "mix2": {128: (3343, 996, 70.21), 256: (2856, 935, 67.26), 512: (2166, 673, 68.93)},
}
PAPER_AVERAGE = {128: (3298, 1066, 67.68), 256: (2529, 707, 72.04), 512: (1899, 618, 67.46)}
#: Section V-E: DR. Swap saves more than this share of DRAM-backed swap's energy.
PAPER_ENERGY_SAVING = {128: 55.0, 256: 60.0, 512: 65.0}
#: Section V-B: a category's five apps a minute each, three rounds.
PAPER_LAUNCHES = 15
