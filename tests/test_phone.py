"""The system level from Python and the CLI: usage specs, phone runs, errors mapped to exceptions,
``mobmem phone`` / ``phones`` / ``apps``, and ``mobmem reproduce emmc-swap`` (its verdicts are
computed from the simulator's numbers)."""

from __future__ import annotations

import collections
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mobmem
from mobmem import phone as ph
from mobmem import reproduce

from conftest import DATA, SHARED, claim_line, cli, judged_by_the_rule, write

WINDOW = DATA / "usage_window_12apps.csv"
TIGHT = {"reserved": "814MiB"}


def test_catalogs_and_presets():
    apps = {a["name"]: a for a in ph.apps()}
    assert set(ph.EMMC_APPS) <= set(apps)
    assert apps["Cordy2"]["cold_start_s"] == 13.81 and apps["Cordy2"]["known"]
    assert apps["TaoBao"]["size_mib"] == 116.0
    phones = ph.phones()
    assert {"gt-i9300", "nexus5"} <= set(phones)
    assert phones["gt-i9300"]["swap"] == "emmc-gt-i9300"
    assert set(ph.killers()) == {"minfree", "psi"}


def test_usage_specs_and_real_window():
    u = ph.usage(WINDOW)
    assert u["stats"]["launches"] == 256 and len(u["apps"]) == u["stats"]["distinct_apps"]
    r = ph.usage(ph.rounds(random=True, seed=3))
    assert r["stats"]["launches"] == 40 and r["apps"] == list(ph.EMMC_APPS)
    s = ph.usage(ph.synthetic(23, 256, 4.56, seed=1))
    assert s["stats"]["distinct_apps"] == 23
    assert abs(s["stats"]["avg_reuse_distance_apps"] - 4.56) < 0.1
    # A2S's Large: 21 of 36 apps launched fewer than three times, here each once.
    large = ph.usage(ph.synthetic(36, 256, 6.10, seed=2, rare=21, rare_launches=1))
    counts = collections.Counter(i for _, i in large["launches"])
    assert sum(1 for n in counts.values() if n == 1) >= 21 and len(counts) == 36
    assert abs(large["stats"]["avg_reuse_distance_apps"] - 6.10) < 0.1
    with pytest.raises(mobmem.ConfigError, match="rare"):
        ph.usage(ph.synthetic(36, 256, 6.10, rare=35))


def test_swap_on_off_under_pressure():
    on, off = mobmem.phone_grid(
        [
            ph.job(ph.rounds(random=True, seed=7), "gt-i9300", checks=True, **TIGHT),
            ph.job(ph.rounds(random=True, seed=7), "gt-i9300", checks=True, swap="off", **TIGHT),
        ]
    )
    assert off.meters["kills_total"] > on.meters["kills_total"]
    assert on.meters["resumed"] > off.meters["resumed"]
    assert on.meters["total_launch_ms"] < off.meters["total_launch_ms"]
    assert off.meters["swap_out_pages"] == 0 and on.meters["swap_out_pages"] > 0
    for r in (on, off):
        m = r.meters
        assert m["cold"] + m["resumed"] == m["launches"] == len(r.launches) == 40
        assert sum(m["ux"].values()) == 40
        row = r.row()
        assert row["swap"] == r.swap and row["launches"] == 40


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    random=st.booleans(),
    swap=st.sampled_from(["emmc-gt-i9300", "zram-lz4", "off"]),
)
def test_conservation_holds_for_any_seed(seed, random, swap):
    # checks=True makes the core verify page states, swap slots and kills after every launch.
    r = mobmem.simulate_phone(
        ph.rounds(random=random, seed=seed), "gt-i9300", seed=seed, checks=True, swap=swap, **TIGHT
    )
    m = r.meters
    assert m["cold"] >= 10 and m["kills_total"] == sum(m["kills"].values())
    for launch in r.launches:
        parts = (
            launch["cpu_ms"]
            + launch["file_wait_ms"]
            + launch["swap_wait_ms"]
            + launch["reclaim_wait_ms"]
            + launch["mapped_read_ms"]
        )
        assert launch["latency_ms"] == pytest.approx(parts)


def test_errors_map_to_exceptions(tmp_path):
    with pytest.raises(mobmem.ConfigError, match="gt-i9300"):
        mobmem.simulate_phone(ph.rounds(), "pixel")
    with pytest.raises(mobmem.ConfigError, match="colour"):
        mobmem.simulate_phone(ph.rounds(), "nexus5", colour="red")
    bad = write(tmp_path, "u.csv", "time_s,app\n1,a\nlate,b\n")
    with pytest.raises(mobmem.TraceFormatError, match=r"u\.csv:3"):
        mobmem.simulate_phone(bad)
    with pytest.raises(mobmem.TraceNotFoundError):
        mobmem.simulate_phone(tmp_path / "missing.csv")
    with pytest.raises(mobmem.OutOfMemoryError, match="TaoBao"):
        mobmem.simulate_phone(
            ph.rounds(["TaoBao", "Amazon"], rounds=1), "nexus5", dram="256MiB", reserved="200MiB", swap="off"
        )


def test_a_setting_swap_off_makes_meaningless_is_refused_over_every_way_in(tmp_path):
    # Python, flags, --set and a phones file: a swap size or a read-around with swap off is a
    # config error naming the field (exit 3), never a silent no-op.
    with pytest.raises(mobmem.ConfigError, match="swap is off") as e:
        mobmem.simulate_phone(ph.rounds(), "nexus5", swap="off", swap_size="512MiB")
    assert e.value.field == "swap_size"
    for args in (
        ["--swap", "off", "--swap-size", "512MiB"],
        ["--set", "swap=off", "--set", "page_cluster=3"],
    ):
        p = cli("phone", "--emmc", "random", "--rounds", "1", *args, ok=False)
        assert p.returncode == 3 and "swap is off" in p.stderr, p.stderr
    mine = write(tmp_path, "phones.toml", '[mine]\ndram = "1GiB"\nswap = "off"\npage_cluster = 2\n')
    p = cli("phone", "--emmc", "random", "--phones", str(mine), "--phone", "mine", ok=False)
    assert p.returncode == 3 and "mine.page_cluster" in p.stderr and "phones.toml" in p.stderr, p.stderr
    # A preset's swap size stays, unused, when only swap is turned off (the eMMC reproduction's run).
    cli("phone", "--emmc", "random", "--rounds", "1", "--set", "swap=off")


def test_cli_phone_and_lists(tmp_path):
    p = cli("phone", "--emmc", "random", "--phone", "gt-i9300", "--reserved", "814MiB", "--launches")
    assert "launches: cold / resumed" in p.stdout and "Krazy Kart Racing" in p.stdout
    j = json.loads(cli("phone", str(WINDOW), "--swap", "off", "--json").stdout)
    assert j["meters"]["launches"] == 256 and j["config"]["phone"]["swap"] == "off"
    assert "defaults" in cli("phone", str(WINDOW)).stdout
    assert "gt-i9300" in cli("phones").stdout
    assert "Cordy2" in cli("apps").stdout
    assert "zram 2.5:1" in cli("devices").stdout
    z = cli("phone", "--emmc", "random", "--phone", "gt-i9300", "--reserved", "814MiB", "--swap", "zram-lz4")
    assert "zram: most DRAM taken (MiB)" in z.stdout
    e = cli("phone", "--emmc", "random", "--synthetic", "12,256,2.23", ok=False)
    assert e.returncode == 2 and "one of" in e.stderr
    e = cli("phone", "--synthetic", "twelve", ok=False)
    assert e.returncode == 2 and "APPS,LAUNCHES,REUSE" in e.stderr
    mine = write(tmp_path, "apps.toml", '[apps."My Game"]\ncategory = "game"\nsize_mib = 80.0\n')
    usage = write(tmp_path, "u.csv", "time_s,app\n0,My Game\n10,Cordy2\n20,My Game\n")
    j = json.loads(cli("phone", str(usage), "--apps", str(mine), "--json").stdout)
    assert j["meters"]["defaulted_apps"] == 0 and j["meters"]["resumed"] == 1


def test_swap_admissions_from_the_core_registry():
    names = ph.swap_admissions()
    assert {"all", "off", "adj-limit"} <= set(names)
    listed = cli("admissions").stdout
    assert all(n in listed for n in names)
    assert "--swap-admission" in cli("phone", "--help").stdout
    usage = ph.synthetic(23, 120, 4.56, seed=1, gap_s=5.0)
    kw = dict(dram="1GiB", reserved="400MiB", swap="emmc-inand", swap_size="512MiB", killer="psi")
    runs = {a: ph.simulate_phone(usage, "nexus5", **kw, swap_admission=a) for a in ("all", "adj-limit")}
    assert runs["all"].pages["swap_outs"] > runs["adj-limit"].pages["swap_outs"]
    assert runs["adj-limit"].pages["swap_vetoes"] > 0
    j = json.loads(
        cli(
            "phone",
            "--synthetic",
            "23,120,4.56",
            "--gap",
            "5",
            "--dram",
            "1GiB",
            "--reserved",
            "400MiB",
            "--swap",
            "emmc-inand",
            "--swap-size",
            "512MiB",
            "--killer",
            "psi",
            "--swap-admission",
            "off",
            "--json",
        ).stdout
    )
    assert j["pages"]["swap_outs"] == 0 and j["config"]["phone"]["swap_admission"] == "off"
    with pytest.raises(mobmem.ConfigError, match="adj-limit"):
        ph.simulate_phone(usage, "nexus5", swap_admission="nope")


def test_zram_writeback_page_level_and_phone(tmp_path):
    assert {"block", "zram", "zram-writeback"} <= set(mobmem.swap_backends())
    listed = cli("devices").stdout
    assert "zram-writeback" in listed and "backing = emmc-inand" in listed
    # Page level: rounds every 1 ms of CPU time at 100 ns an access, so that a short trace has many.
    dev = write(
        tmp_path,
        "wb.toml",
        '[fastwb]\nkind = "zram"\nbackend = "zram-writeback"\ncompression_ratio = 2.5\n'
        "read_ns = 3000\nwrite_ns = 10000\n[fastwb.backend_params]\nidle_s = 1e-3\n"
        "limit_mib_per_day = 1e9\n",
    )
    t = mobmem.Trace.generate("angrybirds", accesses=300_000)
    kw = dict(policy="clock", memory="30%", cpu_ns_per_access=100.0)
    wb = mobmem.simulate(t, swap="fastwb", devices=dev, **kw)
    z = mobmem.simulate(t, swap="zram-lz4", **kw)
    assert wb.meters["written_back"] > 0 and wb.meters["backing_reads"] > 0
    assert wb.meters["io"]["backing_read_ns"] > 0 and z.meters["written_back"] == 0
    assert wb.meters["peak_zram_frames"] <= z.meters["peak_zram_frames"]
    # The first round after the trace's end (1 s of CPU time: 10 M accesses) writes nothing back.
    late = write(
        tmp_path,
        "late.toml",
        '[latewb]\nkind = "zram"\nbackend = "zram-writeback"\ncompression_ratio = 2.5\n'
        "read_ns = 3000\nwrite_ns = 10000\n[latewb.backend_params]\nidle_s = 1e-3\nfirst_s = 1.0\n"
        "limit_mib_per_day = 1e9\n",
    )
    assert mobmem.simulate(t, swap="latewb", devices=late, **kw).meters["written_back"] == 0
    # Phone: the real window on a 1 GiB phone.
    kw = dict(dram="1GiB", reserved="400MiB", swap_size="512MiB", swap="zram-writeback")
    r = ph.simulate_phone(ph.usage_file(WINDOW), "nexus5", **kw)
    assert r.meters["written_back_pages"] > 0 and r.meters["flash_swap_write_bytes"] > 0
    text = cli(
        "phone",
        str(WINDOW),
        "--swap",
        "zram-writeback",
        "--swap-size",
        "512MiB",
        "--dram",
        "1GiB",
        "--reserved",
        "400MiB",
    ).stdout
    assert "zram writeback: written / read back" in text


def test_pixel_7_writes_back_on_androids_schedule_and_bad_schedules_are_errors(tmp_path):
    assert "pixel-7" in cli("phones").stdout

    # The first writeback comes 24 h after the start (ro.zram.first_wb_delay_mins = 1440): 100
    # launches 10 min apart end before it, 30 min apart after it.
    def run(gap_s: float, **kw: object) -> dict:
        usage = ph.synthetic(24, 100, 6.1, seed=1, gap_s=gap_s)
        return ph.simulate_phone(usage, "pixel-7", dram="3GiB", **kw).meters

    short, long = run(600), run(1800)
    assert short["sim_time_s"] < 86400 < long["sim_time_s"]
    assert short["written_back_pages"] == 0 < long["written_back_pages"]
    # The same 16.5 hours with a round every hour from the first hour write back, where Pixel's
    # schedule writes nothing.
    dev = write(
        tmp_path,
        "wb.toml",
        '[hourly]\nkind = "zram"\nbackend = "zram-writeback"\ncompression_ratio = 2.5\n'
        'read_ns = 3000\nwrite_ns = 10000\n[hourly.backend_params]\nbacking = "ufs31"\n'
        "idle_s = 3600.0\nfirst_s = 3600.0\nbacking_mib = 512.0\n",
    )
    hourly = run(600, swap="hourly", devices=dev)
    assert hourly["written_back_pages"] > short["written_back_pages"] == 0
    for field, value in (("first_s", "-1.0"), ("mark_idle_s", "1e12"), ("backing_mib", "-5.0")):
        bad = write(
            tmp_path,
            f"bad_{field}.toml",
            '[bad]\nkind = "zram"\nbackend = "zram-writeback"\ncompression_ratio = 2.5\n'
            f"read_ns = 3000\nwrite_ns = 10000\n[bad.backend_params]\n{field} = {value}\n",
        )
        with pytest.raises(mobmem.ConfigError, match=f"backend_params.{field}"):
            run(600, swap="bad", devices=bad)


@pytest.mark.skipif(
    not (SHARED / "appusage" / "launches_all_users.csv.gz").exists(), reason="../shared absent"
)
def test_multi_user_log_needs_a_user():
    log = SHARED / "appusage" / "launches_all_users.csv.gz"
    with pytest.raises(mobmem.ConfigError, match="choose one"):
        mobmem.simulate_phone(log)


def test_reload_distances_count_the_other_games_since_a_games_last_launch():
    from mobmem.reproduce.emmc_swap import _distances

    assert _distances(["a", "b", "c", "a", "b", "b", "a"]) == [-1, -1, -1, 2, 2, 0, 1]


def test_reproduce_emmc_swap():
    res = json.loads(cli("reproduce", "emmc-swap", "--json").stdout)
    s = res["stated"]
    assert s["usable_mb"] == 460 and res["reading"] == "game-scale"
    # Each reading's fit is the sweep point nearest case 2's ~4 live apps (the first on its grid
    # among equals), and its block ran there.
    for reading, fit in res["fits"].items():
        best = min(fit["sweep"], key=lambda p: (abs(p["live_off"] - 4.0), p["step"]))
        assert fit["value"] == best["value"], reading
        assert res["readings"][reading]["cases"]["2"]["live_reload"] == pytest.approx(best["live_off"])
    # One claim is the calibration target (F); the others carry their verdicts by the one rule.
    recs = judged_by_the_rule(res, "emmc-swap")
    assert [i for i, r in recs.items() if r["verdict"] == "F"] == ["fig7-case2-live-apps"]
    # Swap-off flash writes are the file system's metadata per launch: the same with no page touched.
    assert recs["table7-write-mb-off"]["verdict"] == "E"
    # A claim the model cannot measure says what it does not meter; the swap volumes say how much the
    # games wrote to swap under each reading of what held the memory.
    assert recs["table8-read-4k-share"]["cause"].startswith("not measured: ")
    if recs["table9-swap-write-mb"]["verdict"] == "N":
        why = recs["table9-swap-write-mb"]["cause"]
        assert f"case 3 writes {s['cases']['3']['swap_write_mb']:.0f} MB" in why and "'held'" in why
    # The first loads' claims are explained by the first loads' own runs, not case 3's.
    why = recs["table6-write-mb-on"]["cause"]
    assert (
        not why or f"ten first loads with swap write {s['first_load']['on']['swap_write_mb']:.0f} MB" in why
    )
    # Case 2's reloads, each with the other games played since its game last ran: in order nine.
    d2, d4 = s["cases"]["2"]["reload_distances"], s["cases"]["4"]["reload_distances"]
    assert len(d2) == 30 and d4 == [9] * 30 and all(0 <= x <= 9 for x in d2)
    if recs["fig7-total-cut-case2-vs-case4"]["verdict"] in ("N", "D", "C"):
        assert (
            f"resumes {s['cases']['2']['resumed']} of its 30 reloads"
            in recs["fig7-total-cut-case2-vs-case4"]["cause"]
        )
    # The contrasts are computed from the cases.
    cases = {int(k): v for k, v in s["cases"].items()}
    assert s["cut_1_vs_4_pct"] == pytest.approx(100 * (1 - cases[1]["total_s"] / cases[4]["total_s"]))
    assert s["first_load_overhead_s"] == pytest.approx(cases[3]["first_s"] - cases[4]["first_s"])
    assert s["write_ratio"] == pytest.approx(cases[3]["flash_write_mb"] / cases[4]["flash_write_mb"])
    # Every launch writes the phone's 210 KiB of file-system metadata (53 pages), swap or not.
    for c in cases.values():
        assert c["meta_write_mb"] == pytest.approx(40 * 53 * 4096 / 1e6)
    assert cases[4]["flash_write_mb"] == pytest.approx(cases[4]["meta_write_mb"])
    # Beyond the paper: zram writes no flash but the metadata.
    z = s["zram"]
    assert z["random"]["flash_write_mb"] == pytest.approx(z["random"]["meta_write_mb"])
    assert z["random"]["peak_zram_mib"] > 0
    text = reproduce.report("emmc-swap", res)
    row = claim_line(text, "fig7-case2-live-apps")
    assert " F " in row and "fitted: value" in row and "Under each reading" in text
    assert "paper 631.87" in text and "Beyond the paper" in text
    # The swap-off total in order is mostly the cold-start CPU input when every launch is cold.
    if cases[4]["resumed"] == 0:
        line = next(x for x in text.splitlines() if x.startswith("Swap off, in order (case 4)"))
        assert f"{cases[4]['cold']} of {cases[4]['cold']} launches are cold starts" in line
        from mobmem.reproduce.emmc_swap_report import catalog_games

        cpu = 4 * sum(g["cold_cpu_s"] for g in catalog_games())
        assert f"{cpu:.1f} s of it is the cold-start CPU input" in line
    given = json.loads(cli("reproduce", "emmc-swap", "--value", "1", "--rounds", "1", "--json").stdout)
    # No reload round: nothing of the paper's to compare, a clear error naming the flag.
    bad = cli("reproduce", "emmc-swap", "--rounds", "0", ok=False)
    assert bad.returncode != 0 and "--rounds: 0 reload rounds" in bad.stderr and "Traceback" not in bad.stderr
    assert given["fits"]["game-scale"]["how"] == "given with --value"
    assert given["readings"]["game-scale"]["cases"]["4"]["kills"] == 0  # Table V's games fit in 460 MB
    # The zram check run used the printed levels, halved.
    lv = z["levels"]
    assert lv["factor"] == 0.5 and max(lv["minfree_kib"]) == pytest.approx(
        z["random"]["cached_level_mib"] * 512, rel=0.01
    )


def test_reproduce_dr_swap_switching():
    res = json.loads(
        cli(
            "reproduce",
            "dr-swap",
            "--switching",
            "--categories",
            "browser,gaming",
            "--reserved",
            "1720",
            "--json",
        ).stdout
    )
    sw = res["switching"]
    assert set(sw["categories"]) == {"browser", "gaming"}
    imps = []
    for c in sw["categories"].values():
        assert set(c["sizes"]) == {"128", "256", "512"}
        for row in c["sizes"].values():
            assert {"dram", "dr_swap", "flash", "zram"} <= set(row)
            assert row["dr_swap"]["dr_maps"] > 0 and row["flash"]["dr_maps"] == 0
            assert row["zram"]["swap_outs"] > 0 and row["zram"]["dr_maps"] == 0
            f, d = row["flash"]["delay_ms"], row["dr_swap"]["delay_ms"]
            assert row["improvement_pct"] == pytest.approx(100 * (1 - d / f))
            imps.append(row["improvement_pct"])
            # A resume's CPU time is the paper's 2 s; the rest is what it waited for.
            for a in ("dram", "dr_swap", "flash"):
                waits = sum(
                    row[a][k] for k in ("swap_wait_ms", "reclaim_wait_ms", "file_wait_ms", "mapped_read_ms")
                )
                if row[a]["cold"] == 0:
                    assert row[a]["delay_ms"] == pytest.approx(2000.0 + waits, abs=1.0)
            assert row["dr_swap"]["swap_wait_ms"] <= row["flash"]["swap_wait_ms"]
    assert sw["average_improvement_pct"] == pytest.approx(sum(imps) / len(imps))
    recs = judged_by_the_rule(res, "dr-swap")
    assert recs["fig8-dr-swap-vs-flash-average"]["ours"] is not None
    text = cli("reproduce", "dr-swap", "--switching", "--categories", "news").stdout
    assert "Fig. 8 / Table V" in text and "news" in text and "zram (not in the paper" in text
    assert any(x.startswith("fig8-dr-swap-vs-flash-average") for x in text.splitlines())
    e = cli("reproduce", "dr-swap", "--switching", "--categories", "nope", ok=False)
    assert e.returncode == 3 and "browser" in e.stderr


def test_reproductions_are_callable_with_typed_parameters():
    from mobmem import reproduce

    p = reproduce.params("emmc-swap")
    assert {"rounds", "seed", "reading", "value"} <= set(p)
    res = reproduce.compute("emmc-swap", rounds=1)
    assert res["rounds"] == 1 and "paper" in res
    assert "Table V" in reproduce.report("emmc-swap", res)
    # The same as the CLI prints with --json.
    j = json.loads(cli("reproduce", "emmc-swap", "--rounds", "1", "--json").stdout)
    assert j["stated"] == json.loads(json.dumps(res["stated"]))
    with pytest.raises(mobmem.ConfigError, match="round"):
        reproduce.compute("emmc-swap", round=1)
    with pytest.raises(mobmem.ConfigError, match="emmc-swap"):
        reproduce.compute("nope")


def test_phone_results_are_typed_and_frame():
    r = ph.simulate_phone(ph.usage_file(WINDOW), "nexus5")
    m = r.meters
    assert (r.policy, r.killer, r.swap_admission) == ("linux-2q", "minfree", "all")
    assert r.mean_launch_ms == m["mean_launch_ms"] and r.cold_starts + r.resumes == m["launches"]
    assert r.kills == m["kills_total"] and r.energy_j == m["energy"]["total_j"]
    assert (r.swap_in_pages, r.swap_out_pages, r.flash_write_bytes) == (
        m["swap_in_pages"],
        m["swap_out_pages"],
        m["flash_write_bytes"],
    )
    assert r.to_pandas().iloc[0]["mean_launch_ms"] == r.mean_launch_ms
    jobs = [ph.job(ph.usage_file(WINDOW), "nexus5", swap=s) for s in ("off", "zram-lz4")]
    df = mobmem.phone_grid(jobs, frame=True)
    assert list(df.swap) == ["off", "zram-lz4"] and "mean_launch_ms" in df


def test_hot_list_keeps_what_a_relaunch_touches_out_of_swap():
    # Ariadne's hot list in DRAM: a resume touches what the app's last launch touched, so under
    # pressure those pages no longer come back from zram; the same run admitting every page does.
    assert "hot-list" in ph.swap_admissions()
    usage = ph.synthetic(24, 120, 4.0, seed=1, gap_s=23.0)
    runs = {
        a: ph.simulate_phone(usage, "pixel-7", dram="3GiB", swap_admission=a) for a in ("all", "hot-list")
    }
    resumed = {a: [x for x in r.launches if not x["cold"]] for a, r in runs.items()}
    swapped_in = {a: sum(x["swap_pages_read"] for x in ls) for a, ls in resumed.items()}
    assert swapped_in["hot-list"] == 0 < swapped_in["all"]
    assert runs["hot-list"].pages["swap_vetoes"] > 0 == runs["all"].pages["swap_vetoes"]
    # Only the hot list stays: the rest of the apps' pages (beyond what a relaunch touches) still go.
    outs = {a: r.pages["swap_outs"] for a, r in runs.items()}
    assert outs["all"] > outs["hot-list"] > outs["all"] / 2
    # The lists are the phone's: a page trace with processes has none, and runs as with every
    # page admitted.
    t = mobmem.Trace.category("news", rounds=4, accesses_per_turn=20_000, seed=7)
    base = dict(memory="30%", swap="emmc-inand")
    hot = mobmem.simulate(t, **base, swap_admission="hot-list")
    assert hot.meters == mobmem.simulate(t, **base).meters and hot.meters["swap_outs"] > 0


def test_zram_cpu_splits_into_compression_and_decompression():
    # zram-lz4: 10 µs to compress a page, 3 µs to decompress one, on the swapping task's CPU.
    usage = ph.synthetic(24, 120, 4.0, seed=1, gap_s=23.0)
    r = ph.simulate_phone(usage, "pixel-7", dram="3GiB", swap="zram-lz4")
    cpu, m = r.meters["cpu"], r.meters
    assert math.isclose(cpu["compress_s"], m["swap_out_pages"] * 10e-6, rel_tol=1e-9)
    assert math.isclose(cpu["decompress_s"], m["swap_in_pages"] * 3e-6, rel_tol=1e-9)
    assert cpu["compress_s"] + cpu["decompress_s"] < cpu["swap_s"] <= cpu["system_s"]
    # With writeback, pages read back from the backing device are not zram's to decompress.
    wb = ph.simulate_phone(
        ph.synthetic(24, 120, 4.0, seed=1, gap_s=600.0), "pixel-7", dram="3GiB", swap="zram-writeback"
    ).meters
    assert wb["backing_read_pages"] > 0
    zram_reads = wb["swap_in_pages"] - wb["backing_read_pages"]
    assert math.isclose(wb["cpu"]["decompress_s"], zram_reads * 3e-6, rel_tol=1e-9)
    # A swap device that queues (flash) takes no CPU of its own.
    flash = ph.simulate_phone(usage, "pixel-7", dram="3GiB", swap="emmc-inand")
    assert flash.meters["cpu"]["compress_s"] == flash.meters["cpu"]["decompress_s"] == 0


def test_ariadne_each_technique_alone_moves_what_it_should():
    # Fig. 6's LZO rows, per 4 KiB page (576 MB = 147,456 pages).
    page_ns = lambda ms: ms * 1e6 / 147456  # noqa: E731
    # The reproduction's variants: AdaptiveComp alone (1K-2K-16K, nothing ahead), PreDecomp alone.
    from mobmem.reproduce.ariadne import DATA

    devices = DATA / "devices.toml"
    usage = ph.synthetic(24, 120, 4.0, seed=1, gap_s=23.0)

    def run(swap, **kw):
        return ph.simulate_phone(usage, "pixel-7", dram="3GiB", swap=swap, devices=devices, **kw)

    # The engine's and the phone's conservation checks after every launch (the pool by class too).
    stock, adaptive, predecomp = (
        run("zram-lzo"),
        run("ariadne-adaptive", checks=True),
        run("ariadne-predecomp"),
    )
    m = stock.meters
    # Stock zram: every page at the 4 KiB row, whatever its class; nothing ahead.
    n = m["compressed_hot_pages"] + m["compressed_warm_pages"] + m["compressed_cold_pages"]
    assert n == m["swap_out_pages"] > 0 and m["predecomp_pages"] == 0
    assert math.isclose(m["zram_ratio"], 3.41, rel_tol=1e-12)
    assert math.isclose(m["cpu"]["compress_s"], n * page_ns(620) * 1e-9, rel_tol=1e-9)
    assert math.isclose(m["cpu"]["decompress_s"], m["swap_in_pages"] * page_ns(235) * 1e-9, rel_tol=1e-9)
    # AdaptiveComp alone (1K-2K-16K): each class compressed at its chunk's speed and ratio, a cold
    # fault decompresses its whole 16 KiB chunk.
    a = adaptive.meters
    hot, warm, cold = (a[f"compressed_{c}_pages"] for c in ("hot", "warm", "cold"))
    assert hot > 0 and warm > 0 and cold > 0
    want = (hot * page_ns(505) + warm * page_ns(575) + cold * page_ns(670)) * 1e-9
    assert math.isclose(a["cpu"]["compress_s"], want, rel_tol=1e-9)
    assert math.isclose(
        a["zram_ratio"], (hot + warm + cold) / (hot / 2.84 + warm / 3.14 + cold / 3.78), rel_tol=1e-9
    )
    read = a["decompressed_hot_pages"] * page_ns(22) + a["decompressed_warm_pages"] * page_ns(210)
    read += a["decompressed_cold_pages"] * 4 * page_ns(250)
    assert math.isclose(a["cpu"]["decompress_s"], read * 1e-9, rel_tol=1e-9) and a["predecomp_pages"] == 0
    # PreDecomp alone: faults find pages decompressed ahead, so resumes wait less for zram
    # (the CPU does the same work or more: a page decompressed ahead and not used is wasted).
    p = predecomp.meters
    assert p["predecomp_used"] > 0 and p["predecomp_pages"] >= p["predecomp_used"]
    wait = lambda r: sum(x["swap_wait_ms"] for x in r.launches if not x["cold"])  # noqa: E731
    assert wait(predecomp) < wait(stock)
    assert p["cpu"]["decompress_s"] >= (p["swap_in_pages"] - p["predecomp_used"]) * page_ns(235) * 1e-9 * (
        1 - 1e-9
    )
    # HotnessOrg's hot list with them: resumes read nothing back from zram.
    full = run("ariadne-lzo", swap_admission="hot-list")
    assert sum(x["swap_pages_read"] for x in full.launches if not x["cold"]) == 0
    assert full.meters["compressed_hot_pages"] == 0 < full.meters["compressed_warm_pages"]


def test_a_phone_keeps_or_drops_a_swapped_in_pages_swap_copy_as_a_page_run_does():
    """swap_cache is one knob at both levels: "device" is zram's drop and a block device's keep."""
    usage = ph.rounds(random=True, seed=7)
    runs = {
        (swap, cache): ph.simulate_phone(usage, "gt-i9300", swap=swap, swap_cache=cache, **TIGHT)
        for swap in ("zram-lz4", "emmc-inand")
        for cache in ("device", "keep", "drop")
    }

    def counts(r: ph.PhoneResult) -> tuple[int, int, int]:
        return (r.swap_in_pages, r.swap_out_pages, r.pages["swap_cache_drops"])

    for (swap, cache), r in runs.items():
        assert r.config["phone"]["swap_cache"] == cache and r.swap_out_pages > 0, (swap, cache)
    assert counts(runs["zram-lz4", "device"]) == counts(runs["zram-lz4", "drop"])
    assert counts(runs["emmc-inand", "device"]) == counts(runs["emmc-inand", "keep"])
    for swap in ("zram-lz4", "emmc-inand"):
        keep, drop = runs[swap, "keep"], runs[swap, "drop"]
        assert keep.pages["swap_cache_drops"] > 0 == drop.pages["swap_cache_drops"], swap
        assert counts(keep) != counts(drop), swap


def test_a_phones_zram_pool_outside_its_dram_takes_no_frames_as_on_a_page_run():
    """zram_in_memory is one knob at both levels: off, zram's pool takes no frame of the phone's
    DRAM (a memory cgroup's limit charges it to no cgroup), so less is swapped and killed; the
    pool by class (an Ariadne backend) keeps its classes and its checks."""
    usage = ph.rounds(random=True, seed=7)
    inside, outside = (
        ph.simulate_phone(usage, "gt-i9300", swap="zram-lz4", zram_in_memory=z, checks=True, **TIGHT)
        for z in (True, False)
    )
    assert inside.config["phone"]["zram_in_memory"] and not outside.config["phone"]["zram_in_memory"]
    assert inside.pages["peak_zram_frames"] > 0 == outside.pages["peak_zram_frames"]
    assert 0 < outside.swap_out_pages < inside.swap_out_pages
    assert outside.meters["kills_total"] < inside.meters["kills_total"]
    from mobmem.reproduce.ariadne import DATA

    kw = dict(dram="3GiB", swap="ariadne-adaptive", devices=DATA / "devices.toml", checks=True)
    a = ph.simulate_phone(
        ph.synthetic(24, 120, 4.0, seed=1, gap_s=23.0), "pixel-7", zram_in_memory=False, **kw
    )
    assert a.pages["peak_zram_frames"] == 0 < a.meters["compressed_cold_pages"]


def test_every_phone_field_is_a_flag_or_set_and_a_flag_is_its_set(tmp_path):
    """The phone's flags come from the core's declaration: each single-valued field has one, with
    its help; tables go through --set. A flag and the same --set make the same run."""
    fields = ph.fields()
    assert {"dram", "swap_cache", "killer_params", "ux"} <= set(fields)
    assert set(fields) == set(ph.simulate_phone(ph.rounds(rounds=1)).config["phone"])
    out = cli("phone", "--help").stdout.replace("\n", " ")
    for name, f in fields.items():
        flag = "--" + name.replace("_", "-") + " "
        if isinstance(f["default"], dict | list) or name in ("description", "source"):
            assert flag not in out, name
        else:
            assert flag in out and f["help"].split()[0] in out, name
    base = (
        "phone",
        "--emmc",
        "random",
        "--rounds",
        "1",
        "--phone",
        "gt-i9300",
        "--reserved",
        "814MiB",
        "--json",
    )
    for flag, value, key in (
        ("--page-cluster", "1", "page_cluster"),
        ("--swap-size", "256MiB", "swap_size"),
        ("--min-free-kib", "9000", "min_free_kib"),
        ("--swap-cache", "drop", "swap_cache"),
    ):
        by_flag = json.loads(cli(*base, flag, value).stdout)
        by_set = json.loads(cli(*base, "--set", f"{key}={value}").stdout)
        for r in (by_flag, by_set):
            r.pop("wall_time_s")
        assert by_flag == by_set, flag
        echoed = by_flag["config"]["phone"][key]
        assert str(echoed).replace(" ", "") == value, (flag, echoed)
    # A boolean a phone table turned on can be turned off by a flag.
    phones = write(
        tmp_path,
        "p.toml",
        '[nvm]\ndram = "1GiB"\nswap = "lpddr2-pcm"\nswap_size = "256MiB"\ndirect_read = true\n',
    )
    nvm = ("phone", "--emmc", "random", "--rounds", "1", "--phones", str(phones), "--phone", "nvm", "--json")
    on = json.loads(cli(*nvm).stdout)["config"]["phone"]["direct_read"]
    off = json.loads(cli(*nvm, "--no-direct-read").stdout)["config"]["phone"]["direct_read"]
    assert (on, off) == (True, False)
