"""Differential tests: a tiny independent Python reference of FIFO, LRU and OPT (and of the fault
semantics' swap counts for LRU), compared with the engine on random traces (hypothesis)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import mobmem


def ref_faults(policy: str, pages: list[int], frames: int) -> int:
    mem: list[int] = []
    faults = 0
    for i, p in enumerate(pages):
        if p in mem:
            if policy == "lru":
                mem.remove(p)
                mem.append(p)
            continue
        faults += 1
        if len(mem) == frames:
            if policy == "opt":
                rest = pages[i + 1 :]
                victim = max(mem, key=lambda x: rest.index(x) if x in rest else len(pages))
                mem.remove(victim)
            else:
                mem.pop(0)
        mem.append(p)
    return faults


def ref_lru_swap(accesses: list[tuple[int, str]], frames: int) -> tuple[int, int]:
    """(swap-outs, swap-ins) of LRU under DESIGN.md's rules, written independently."""
    mem: list[int] = []
    dirty: set[int] = set()
    anon: set[int] = set()
    swapped: set[int] = set()  # pages with a valid swap copy
    outs = ins = 0
    for p, op in accesses:
        if p in mem:
            mem.remove(p)
        else:
            if p in anon:
                ins += 1
            if len(mem) == frames:
                v = mem.pop(0)
                if v in anon and v in dirty:
                    outs += 1
                    swapped.add(v)
                dirty.discard(v)
            if p in anon and p not in swapped:
                raise AssertionError("anon page lost")
        mem.append(p)
        if op == "W":
            anon.add(p)
            dirty.add(p)
            swapped.discard(p)
    return outs, ins


accesses = st.lists(st.tuples(st.integers(0, 25), st.sampled_from("IRW")), min_size=1, max_size=300)


def to_trace(tmp: Path, acc: list[tuple[int, str]]) -> mobmem.Trace:
    f = tmp / "t.txt"
    f.write_text("".join(f"{p} {op}\n" for p, op in acc))
    return mobmem.Trace.open(f)


@settings(max_examples=60, deadline=None)
@given(acc=accesses, frames=st.integers(1, 20))
def test_fifo_lru_opt_match_reference(tmp_path_factory, acc, frames):
    t = to_trace(tmp_path_factory.mktemp("ref"), acc)
    pages = [p for p, _ in acc]
    for policy in ("fifo", "lru", "opt"):
        assert mobmem.simulate(t, policy=policy, memory=frames).faults == ref_faults(policy, pages, frames)


@settings(max_examples=60, deadline=None)
@given(acc=accesses, frames=st.integers(1, 20))
def test_swap_traffic_matches_reference(tmp_path_factory, acc, frames):
    t = to_trace(tmp_path_factory.mktemp("ref"), acc)
    m = mobmem.simulate(t, policy="lru", memory=frames).meters
    assert (m["swap_outs"], m["swap_ins"]) == ref_lru_swap(acc, frames)


@settings(max_examples=30, deadline=None)
@given(acc=accesses, frames=st.integers(1, 20))
def test_opt_is_the_floor_and_lru_is_monotone(tmp_path_factory, acc, frames):
    t = to_trace(tmp_path_factory.mktemp("ref"), acc)
    opt = mobmem.simulate(t, policy="opt", memory=frames).faults
    for p in mobmem.policies():
        assert opt <= mobmem.simulate(t, policy=p, memory=frames).faults
    assert (
        mobmem.simulate(t, policy="lru", memory=frames + 1).faults
        <= mobmem.simulate(t, policy="lru", memory=frames).faults
    )
