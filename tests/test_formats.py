"""Trace readers seen from Python, checked against independent parsers and the capture's own counts."""

from __future__ import annotations

import gzip
import json

import pytest
import zstandard

import mobmem

from conftest import DATA, ROOT, SHARED, write


def naive_lackey(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for line in text.splitlines():
        if line.startswith("=="):
            continue
        kind, rest = line[:3].strip(), line[3:]
        addr_s, size_s = rest.split(",")
        addr, size = int(addr_s, 16), int(size_s)
        pages = range(addr >> 12, ((addr + max(size, 1) - 1) >> 12) + 1)
        if kind == "I":
            out += [(p, "I") for p in pages]
        elif kind == "L":
            out += [(p, "R") for p in pages]
        elif kind == "S":
            out += [(p, "W") for p in pages]
        else:
            out += [(p, "R") for p in pages] + [(p, "W") for p in pages]
    return out


def test_real_lackey_capture_matches_an_independent_parser():
    raw = zstandard.ZstdDecompressor().decompress((DATA / "lackey_true.txt.zst").read_bytes(), 1 << 26)
    want = naive_lackey(raw.decode())
    t = mobmem.Trace.open(DATA / "lackey_true.txt.zst")
    assert t.format == "lackey"
    assert len(t) == len(want)
    assert t.head(len(t)) == want
    banner = sum(1 for line in raw.decode().splitlines() if line.startswith("=="))
    assert t.stats()["skipped"]["banner_lines"] == banner


def test_bundled_real_trace_matches_its_capture_counts():
    counts = json.loads((ROOT / "data" / "sqlite3_btree.json").read_text())
    s = mobmem.Trace.open(ROOT / "data" / "sqlite3_btree.txt.zst").stats()
    assert s["accesses"] == counts["records_out"]
    assert (s["instr"], s["reads"], s["writes"]) == (counts["I"], counts["R"], counts["W"])
    assert s["distinct_pages"] == counts["distinct_pages"]


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data is not beside this checkout")
@pytest.mark.parametrize("name", ["gzip6_150k", "perl_wordfreq30k", "sort_paths8k"])
def test_shared_real_traces_match_their_counts(name):
    counts = json.loads((SHARED / "pagetraces" / f"{name}.json").read_text())
    s = mobmem.Trace.open(SHARED / "pagetraces" / f"{name}.txt.zst").stats()
    assert s["accesses"] == counts["records_out"]
    assert (s["instr"], s["reads"], s["writes"]) == (counts["I"], counts["R"], counts["W"])
    assert s["distinct_pages"] == counts["distinct_pages"]


def test_gzip_and_formats_round_trip(tmp_path, sqlite_slice):
    text = "".join(f"{p} {op}\n" for p, op in sqlite_slice.head(len(sqlite_slice)))
    gz = write(tmp_path, "t.weird", gzip.compress(text.encode()))
    assert mobmem.Trace.open(gz).head(len(sqlite_slice)) == sqlite_slice.head(len(sqlite_slice))
    for name in ("x.mobt", "x.mobt.zst", "x.csv.gz", "x.txt"):
        sqlite_slice.save(tmp_path / name)
        back = mobmem.Trace.open(tmp_path / name)
        assert back.head(len(back)) == sqlite_slice.head(len(sqlite_slice)), name
        mapped = mobmem.Trace.open(tmp_path / name, map=True)
        assert mapped.head(len(mapped)) == sqlite_slice.head(len(sqlite_slice)), f"{name}, mapped"
        one = dict(policy="clock", memory="10%")
        assert mobmem.simulate(mapped, **one).meters == mobmem.simulate(back, **one).meters, name


def test_skip_bad_lines_reports_the_first(tmp_path):
    p = write(tmp_path, "t.txt", "1 R\nnot a line\n2 W\n")
    with pytest.raises(mobmem.TraceFormatError) as e:
        mobmem.Trace.open(p)
    assert e.value.line == 2 and "not a line" in str(e.value)
    t = mobmem.Trace.open(p, skip_bad_lines=True)
    s = t.stats()["skipped"]
    assert len(t) == 2 and s["bad_lines"] == 1 and ":2:" in s["first_bad_line"]


def test_truncated_compressed_file(tmp_path, sqlite_slice):
    sqlite_slice.save(tmp_path / "full.txt.zst")
    data = (tmp_path / "full.txt.zst").read_bytes()
    cut = write(tmp_path, "cut.txt.zst", data[: len(data) // 2])
    with pytest.raises(mobmem.TraceFormatError, match="truncated or corrupt"):
        mobmem.Trace.open(cut)


def test_csv_with_pids(tmp_path):
    p = write(tmp_path, "t.csv", "page,op,pid\n1,R,10\n1,W,20\n2,I,10\n1,R,10\n")
    t = mobmem.Trace.open(p)
    s = t.stats()
    assert t.num_pages == 3
    assert [(x["pid"], x["accesses"], x["pages"]) for x in s["pids"]] == [(10, 3, 2), (20, 1, 1)]
