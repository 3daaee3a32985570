"""The Python API: traces, runs, grids, DataFrames, and errors mapped to typed exceptions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mobmem

from conftest import DATA, ROOT, cli, write


def test_simulate_returns_a_typed_record(sqlite_slice):
    r = mobmem.simulate(sqlite_slice, policy="lru", memory=8)
    assert r.policy == "lru" and r.frames == 8 and r.memory == "8"
    m = r.meters
    assert m["hits"] + m["faults"] == m["accesses"] == len(sqlite_slice) == 60_000
    assert m["faults"] == (
        m["cold_anon"] + m["cold_file"] + m["swap_faults"] + m["file_rereads"] + m["dr_promotions"]
    )
    io = m["io"]
    assert io["total_ns"] == pytest.approx(
        io["swap_read_ns"] + io["swap_write_ns"] + io["file_read_ns"] + io["file_write_ns"]
    )
    assert r.config["swap"]["name"] == "optane-m10" and r.config["storage"]["name"] == "ufs31"
    assert r.accesses_per_s > 0
    row = r.row()
    assert row["faults"] == r.faults and row["io_total_ns"] == r.io_time_ns
    assert json.loads(json.dumps(r.to_dict()))["meters"]["faults"] == r.faults


def test_io_time_follows_the_device_models(sqlite_slice):
    r = mobmem.simulate(sqlite_slice, policy="clock", memory=4)
    swap = mobmem.devices()["optane-m10"]
    ufs = mobmem.devices()["ufs31"]
    m = r.meters
    assert m["io"]["swap_read_ns"] == pytest.approx(m["swap_ins"] * swap["read_ns"])
    assert m["io"]["swap_write_ns"] == pytest.approx(m["swap_outs"] * swap["write_ns"])
    assert m["io"]["file_read_ns"] == pytest.approx(m["file_reads"] * ufs["read_ns"])
    # A slower swap device costs more time for the same faults.
    slow = mobmem.simulate(sqlite_slice, policy="clock", memory=4, swap="emmc-inand")
    assert slow.faults == r.faults
    assert slow.meters["io"]["swap_write_ns"] > m["io"]["swap_write_ns"]


def test_memory_forms(sqlite_slice):
    n = sqlite_slice.num_pages
    assert mobmem.simulate(sqlite_slice, memory="50%").frames == round(n / 2)
    assert mobmem.simulate(sqlite_slice, memory="64KiB").frames == 16
    assert mobmem.simulate(sqlite_slice, memory=12).frames == 12


def test_grid_and_compare(sqlite_slice):
    runs = mobmem.grid(sqlite_slice, policies="lru,clock,opt", memories=[4, 16], threads=2)
    assert [(r.policy, r.frames) for r in runs] == [
        ("lru", 4),
        ("lru", 16),
        ("clock", 4),
        ("clock", 16),
        ("opt", 4),
        ("opt", 16),
    ]
    for r in runs:
        assert r.faults == mobmem.simulate(sqlite_slice, policy=r.policy, memory=r.frames).faults
    pytest.importorskip("pandas")
    df = mobmem.compare(sqlite_slice, policies=["lru", "clock", "opt"], memories=[4, 16])
    assert len(df) == 6
    clock = df[df.policy == "clock"]
    assert (clock.faults_vs_clock == 1.0).all()
    assert (df[df.policy == "opt"].faults_vs_opt == 1.0).all()
    assert (df.faults_vs_opt >= 1.0).all()


def test_policy_params(sqlite_slice):
    a = mobmem.simulate(sqlite_slice, policy="2q", memory=16)
    b = mobmem.simulate(sqlite_slice, policy="2q", memory=16, params={"ain_ratio": 0.5})
    assert a.config["params"] == {"ain_ratio": 0.25, "aout_ratio": 0.5}
    assert b.config["params"]["ain_ratio"] == 0.5
    assert a.faults != b.faults


def test_generate_is_deterministic_and_validated():
    a = mobmem.Trace.generate("youtube", accesses=20_000, seed=3)
    b = mobmem.Trace.generate("youtube", accesses=20_000, seed=3)
    c = mobmem.Trace.generate("youtube", accesses=20_000, seed=4)
    assert a.head(500) == b.head(500) != c.head(500)
    assert mobmem.simulate(a, memory="5%").meters == mobmem.simulate(b, memory="5%").meters
    with pytest.raises(mobmem.ConfigError, match="no_such"):
        mobmem.Trace.generate("youtube", no_such=1)
    with pytest.raises(mobmem.ConfigError, match="preset"):
        mobmem.Trace.generate("tiktok")
    with pytest.raises(mobmem.ConfigError, match="hot_prob"):
        mobmem.Trace.generate(hot_prob=2.0)


def test_errors_are_typed(tmp_path, sqlite_slice):
    with pytest.raises(mobmem.ConfigError, match="known") as e:
        mobmem.simulate(sqlite_slice, policy="lfu-nope")
    assert e.value.field == "policy"
    assert isinstance(e.value, ValueError) and isinstance(e.value, mobmem.MobmemError)
    with pytest.raises(mobmem.ConfigError, match="memory"):
        mobmem.simulate(sqlite_slice, memory="ten percent")
    with pytest.raises(mobmem.ConfigError, match="bogus"):
        mobmem.simulate(sqlite_slice, params={"bogus": 1})
    with pytest.raises(mobmem.TraceNotFoundError) as nf:
        mobmem.Trace.open(tmp_path / "missing.txt")
    assert isinstance(nf.value, FileNotFoundError)
    bad = write(tmp_path, "bad.txt", "1 R\n2 R\n3 Q\n")
    with pytest.raises(mobmem.TraceFormatError) as fe:
        mobmem.Trace.open(bad)
    assert fe.value.line == 3 and fe.value.path == str(bad) and "Q" in str(fe.value)
    with pytest.raises(mobmem.OutOfMemoryError):
        t = mobmem.Trace.open(write(tmp_path, "w.txt", "1 W\n2 W\n3 W\n"))
        mobmem.simulate(t, memory=1, swap_size=1)


def test_user_devices(tmp_path, sqlite_slice):
    dev = write(tmp_path, "dev.toml", '[tape]\nkind = "flash"\nread_ns = 1e9\nwrite_ns = 2e9\n')
    r = mobmem.simulate(sqlite_slice, memory=4, swap="tape", devices=dev)
    assert r.meters["io"]["swap_read_ns"] == pytest.approx(r.meters["swap_ins"] * 1e9)
    bad = write(tmp_path, "bad.toml", '[tape]\nkind = "flash"\nread_ns = 1\nwrite_ns = 1\nspeed = 3\n')
    with pytest.raises(mobmem.TraceFormatError) as e:
        mobmem.simulate(sqlite_slice, devices=bad)
    assert e.value.line == 5 and "speed" in str(e.value)


def test_run_file(tmp_path):
    rf = write(
        tmp_path,
        "run.toml",
        f'[trace]\npath = "{DATA / "sqlite_60k.txt.zst"}"\n\n[sim]\nmemory = 8\npolicy = "arc"\n'
        'swap = "flashy"\n\n[devices.flashy]\nkind = "flash"\nread_iops = 1000\nwrite_iops = 500\n',
    )
    r = mobmem.run_file(rf)
    assert r.policy == "arc" and r.frames == 8 and r.config["swap"]["write_ns"] == 2e6
    bad = write(tmp_path, "bad.toml", '[trace]\npath = "x"\n[sim]\nmemory = 8\npolcy = "arc"\n')
    with pytest.raises(mobmem.TraceFormatError, match="polcy") as e:
        mobmem.run_file(bad)
    assert e.value.line == 5
    # Settings over the file's, by dotted name (a table spread over its keys), as the CLI's flags.
    r = mobmem.run_file(rf, set={"sim.policy": "2q", "sim.params": {"ain_ratio": 0.5}, "sim.memory": 16})
    assert (r.policy, r.frames, r.config["params"]["ain_ratio"]) == ("2q", 16, 0.5)
    assert (
        r.meters
        == mobmem.run_file(
            rf, set={"sim.policy": "2q", "sim.memory": 16, "sim.params.ain_ratio": 0.5}, stream=True
        ).meters
    )
    r = mobmem.run_file(rf, set={"trace.path": DATA / "synthetic_40k.txt.zst"})
    assert r.trace["path"].endswith("synthetic_40k.txt.zst")
    for bad_set, field in (
        ({"sim.policy": None}, "set['sim.policy']"),
        ({"sim..x": 1}, "set"),
        (["x"], "set"),
        ({"sim.params.x": [{"a": 1}]}, "set['sim.params.x']"),
    ):
        with pytest.raises(mobmem.ConfigError) as e:
            mobmem.run_file(rf, set=bad_set)
        assert e.value.field == field


def test_registries():
    assert set(mobmem.policies()) >= {"fifo", "lru", "clock", "arc", "2q", "opt"}
    # Every format of the core's registry, one file each (no name list to keep in step here).
    format_files = Path(__file__).resolve().parent.parent / "crates/mobmem-core/src/trace/formats"
    assert set(mobmem.trace_formats()) == {f.stem for f in format_files.glob("*.rs")} - {"mod"}
    assert {"ufs31", "optane-m10", "dram-ramdisk"} <= set(mobmem.devices())
    assert mobmem.presets() == ["angrybirds", "youtube", "chrome", "facebook", "farmstory"]


def test_zram_takes_memory_from_the_same_dram():
    t = DATA / "synthetic_40k.txt.zst"
    plain = mobmem.simulate(t, policy="lru", memory="30%", swap="dram-ramdisk")
    z = mobmem.simulate(t, policy="lru", memory="30%", swap="zram-lz4")
    assert plain.meters["peak_zram_frames"] == 0
    ratio = z.config["swap"]["compression_ratio"]
    assert z.meters["peak_zram_frames"] == -(-z.meters["peak_swap_pages"] // ratio)
    # Less memory for pages: LRU never faults less.
    assert z.meters["faults"] >= plain.meters["faults"] and z.meters["swap_outs"] > 0
    with pytest.raises(mobmem.ConfigError, match="zram"):
        mobmem.simulate(t, policy="lru", memory="30%", swap="zram-lz4", tiers={"pcm_share": 0.5})


def test_traces_from_a_notebooks_columns(sqlite_slice):
    import numpy as np

    pages = [p for p, _ in sqlite_slice.head(5000)]
    ops = "".join(o for _, o in sqlite_slice.head(5000))
    t = mobmem.Trace.from_pages(pages, ops, name="mine")
    assert (len(t), t.format, t.path) == (5000, "memory", "mine")
    # The same accesses as a numpy array with op codes: the same run.
    codes = np.array(["IRW".index(o) for o in ops])
    t2 = mobmem.Trace.from_pages(np.array(pages, dtype=np.uint64), codes)
    r1, r2 = (mobmem.simulate(x, policy="lru", memory=64) for x in (t, t2))
    assert r1.faults == r2.faults > 0
    # And the same as reading those lines from a file.
    assert t.head(20) == sqlite_slice.head(20)
    for pages_, ops_, field in [
        ([1, 2], "R", "ops"),
        ([1, -2], "RR", "pages"),
        ([1], "X", "ops"),
        ([], "", "pages"),
    ]:
        with pytest.raises(mobmem.ConfigError) as e:
            mobmem.Trace.from_pages(pages_, ops_)
        assert e.value.field == field


def test_config_is_the_cores_schema_and_runs_the_same_as_keywords(sqlite_slice):
    fields = mobmem.Config.fields()
    assert fields["memory"]["default"] == "10%" and fields["policy"]["default"] == "clock"
    assert all(f["help"] for f in fields.values())
    cfg = mobmem.Config(policy="lru", memory=16)
    assert (cfg.policy, cfg.memory, cfg.swap_size, cfg["page_size"]) == ("lru", 16, None, 4096)
    assert cfg.replace(memory=32).memory == 32 and cfg.memory == 16
    with pytest.raises(mobmem.ConfigError, match="polcy"):
        mobmem.Config(polcy="lru")
    with pytest.raises(AttributeError):
        cfg.policy = "fifo"
    a = mobmem.simulate(sqlite_slice, cfg)
    b = mobmem.simulate(sqlite_slice, policy="lru", memory=16)
    c = mobmem.simulate(sqlite_slice, {"policy": "fifo"}, policy="lru", memory=16)
    assert a.faults == b.faults == c.faults and a.policy == "lru"
    # The defaults a run echoes are the schema's.
    d = mobmem.simulate(sqlite_slice)
    assert (d.policy, d.memory, d.config["page_size"]) == ("clock", "10%", fields["page_size"]["default"])
    # Every knob is echoed, as given or as what it resolved to: a new knob needs no Python edit.
    assert {k for k in fields if "." not in k} <= set(d.config)
    e = mobmem.simulate(sqlite_slice, page_cluster=2, reclaim_batch=8, swap="emmc-inand", memory=8)
    assert (e.config["page_cluster"], e.config["swap"]["name"], e.config["swap_size"]) == (
        2,
        "emmc-inand",
        None,
    )
    df = mobmem.grid(sqlite_slice, policies="lru,clock", memories=[8, 16], frame=True, swap="zram-lz4")
    assert list(df.policy) == ["lru", "lru", "clock", "clock"] and len(df) == 4
    assert df.faults.gt(0).all()


def test_every_knob_has_a_cli_flag_with_its_help():
    out = cli("run", "--help").stdout
    # Tables have their own flags: --param, the tier flags, --admission-param.
    own = {"params": "--param", "tiers": "--pcm-share", "swap_admission_params": "--admission-param"}
    for name in mobmem.Config.fields():
        if name in ("memory", "policy"):
            continue
        assert own.get(name, "--" + name.replace("_", "-")) in out, name


def test_every_knob_of_both_levels_is_in_its_doc():
    """A knob declared in the core is documented once: a page run's own in CONFIG.md's run file, a
    phone's own in SYSTEM.md's table of phone fields (by its name in backticks), and a knob both
    levels have in CONFIG.md's table of them, a row with each level's default as the core has it."""
    config = (ROOT / "docs" / "CONFIG.md").read_text()
    page, phone = mobmem.Config.fields(), mobmem.phone.fields()
    shared = [k for k, f in phone.items() if f["shared"]]
    assert "policy" in shared and "zram_in_memory" in shared and "dram" not in shared
    named = ("# {k} =", "\n{k} =", "[sim.{k}]")
    assert [k for k in page if k not in shared and not any(n.format(k=k) in config for n in named)] == []
    system = (ROOT / "docs" / "SYSTEM.md").read_text()
    assert [k for k in phone if k not in shared and f"`{k}`" not in system] == []
    rows = {}
    for line in config.split("## Knobs both levels have", 1)[1].split("\n## ", 1)[0].splitlines():
        cells = [c.strip().strip("`") for c in line.split("|")[1:-1]]
        if len(cells) == 4 and cells[0] in page:
            rows[cells[0]] = (cells[1], cells[2])
    assert rows == {k: (json.dumps(page[k]["default"]), json.dumps(phone[k]["default"])) for k in shared}
