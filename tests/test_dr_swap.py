"""DR. Swap: Direct Read through the API, the energy model from Python and the CLI, and the
reproduction's structure and mechanism (on small workloads)."""

from __future__ import annotations

import json

import pytest

import mobmem

from conftest import cli, judged_by_the_rule, write


def test_direct_read_through_the_api(tmp_path):
    t = mobmem.Trace.open(write(tmp_path, "t.txt", "1 W\n2 W\n1 R\n1 R\n1 W\n2 R\n"))
    on = mobmem.simulate(t, policy="lru", memory=1, swap="lpddr2-pcm", direct_read=True)
    m = on.meters
    assert (m["swap_faults"], m["dr_maps"], m["dr_promotions"], m["swap_ins"], m["dr_hits"]) == (
        2,
        2,
        1,
        1,
        1,
    )
    off = mobmem.simulate(t, policy="lru", memory=1, swap="lpddr2-pcm")
    assert off.meters["swap_ins"] == 2 and off.meters["dr_maps"] == 0
    with pytest.raises(mobmem.ConfigError) as e:
        mobmem.simulate(t, memory=1, swap="emmc-inand", direct_read=True)
    assert e.value.field == "direct_read"


def test_run_energy_uses_the_papers_model(tmp_path):
    t = mobmem.Trace.category("news", rounds=1, accesses_per_turn=20_000)
    r = mobmem.simulate(t, memory="30%", swap="lpddr2-dram", swap_size="128MiB", energy_duration_s=900)
    se = r.swap_energy
    assert se["model"] == "lpddr2-dram" and se["t_total_s"] == 900 and se["swap_bytes"] == 128 << 20
    assert (se["n_rd"], se["n_wr"]) == (r.meters["swap_ins"], r.meters["swap_outs"])
    again = mobmem.swap_energy("lpddr2-dram", se["n_rd"], se["n_wr"], 900, 128 << 20)
    assert again["total_j"] == pytest.approx(se["total_j"])
    assert mobmem.simulate(t, memory="30%").swap_energy is None  # optane-m10 names no model


def test_energy_cli_matches_the_api():
    args = [
        "energy",
        "--swap-ins",
        "3298",
        "--swap-outs",
        "4000",
        "--dr-swap-ins",
        "1066",
        "--swap-size",
        "256MiB",
    ]
    j = json.loads(cli(*args, "--json").stdout)
    assert j["DRAM-backed"]["total_j"] == pytest.approx(
        mobmem.swap_energy("lpddr2-dram", 3298, 4000, 900, 256 << 20)["total_j"]
    )
    assert j["DR. Swap (PCM)"]["n_rd"] == 1066 and j["flash-backed"]["n_rd"] == 3298
    text = cli(*args).stdout
    saving = 100 * (j["DR. Swap (PCM)"]["total_j"] / j["DRAM-backed"]["total_j"] - 1)
    assert f"{saving:+.2f}%" in text and "total (mAh at 3.8 V)" in text
    bad = cli("energy", "--swap-ins", "1", "--swap-outs", "1", "--duration", "soon", ok=False)
    assert bad.returncode == 3 and "soon" in bad.stderr
    pct = cli("energy", "--swap-ins", "1", "--swap-outs", "1", "--swap-size", "10%", ok=False)
    assert pct.returncode == 3 and "swap-size" in pct.stderr and "10%" in pct.stderr


@pytest.fixture(scope="module")
def repro():
    p = cli(
        "reproduce", "dr-swap", "--categories", "browser,gaming", "--accesses-per-turn", "20000", "--json"
    )
    return json.loads(p.stdout)


def test_memory_kept_from_apps_is_the_one_fit(repro):
    for reading, fit in repro["fits"].items():
        sweep = fit["sweep"]
        best = min(sweep, key=lambda p: abs(p["swap_ins"] - 3298))
        assert fit["reserved_mib"] == best["reserved_mib"], reading
        assert fit["how"].startswith("fitted to Table IV")
    assert (
        repro["fits"]["readahead"]["page_cluster"] == 3 and repro["fits"]["fault-only"]["page_cluster"] == 0
    )
    recs = judged_by_the_rule(repro, "dr-swap")
    fitted = sorted(i for i, r in recs.items() if r["verdict"] == "F")
    assert fitted == ["table4-average-128mb-dr-off"]
    assert all(recs[i]["fitted"] == "reserved" for i in fitted)
    # The energy saving does not move with the workload taken away: Table II's background power.
    assert recs["fig7-saving-vs-dram-128mb"]["verdict"] == "E"


def test_why_the_apps_do_not_swap_is_checked_in_the_run(repro):
    from mobmem.reproduce import dr_swap_why

    alone = repro["apps_alone"]
    assert [p["reserved_mib"] for p in alone] == list(range(1500, 1951, 50))
    # Two categories of five apps, three rounds: the first round's ten launches are cold starts.
    assert all(10 <= p["cold"] <= 30 for p in alone)
    line = dr_swap_why.apps_alone_line(alone, 30)
    assert all(f"{p['reserved_mib']}: {p['swap_ins']:.0f}/" in line for p in alone)
    recs = judged_by_the_rule(repro, "dr-swap")
    # Every switching claim not reproduced says what a switch waited for in this run.
    for i, r in recs.items():
        if i.startswith("fig8-") and r["verdict"] == "N":
            assert "resume CPU input" in r["cause"] and "waited" in r["cause"], i


def test_table_iv_on_the_system_level(repro):
    for reading, table in repro["table_iv"].items():
        assert set(table) == {"browser", "gaming"}
        for rows in table.values():
            assert set(rows) == {"128", "256", "512"}
            for r in rows.values():
                assert r["swap_ins_dr_on"] <= r["swap_ins_dr_off"]
                if r["swap_ins_dr_off"]:
                    assert r["dr_maps"] > 0
                    assert r["reduction_pct"] == pytest.approx(
                        100 * (1 - r["swap_ins_dr_on"] / r["swap_ins_dr_off"])
                    )
                assert (
                    r["app_swap_faults_dr_off"] + r["system_swap_faults_dr_off"] > 0
                    or not r["swap_ins_dr_off"]
                )
            # An area that never filled cannot make a difference between sizes.
            if not any(r["swap_full_dr_off"] for r in rows.values()):
                assert len({r["swap_ins_dr_off"] for r in rows.values()}) == 1
        avg = repro["averages"][reading]
        n = len(table)
        assert avg["128"]["off"] == pytest.approx(
            sum(t["128"]["swap_ins_dr_off"] for t in table.values()) / n
        )


def test_energy_is_background_and_ordered(repro):
    for rows in repro["energy"].values():
        for r in rows.values():
            e = r["energy_j"]
            assert e["flash"] < e["dr_swap"] < e["dram"]
            assert r["traffic_share_pct"]["dram"] < 1.0  # background × 900 s is almost all of it
        savings = [rows[mb]["dr_swap_saving_vs_dram_pct"] for mb in ("128", "256", "512")]
        assert savings == sorted(savings), "DRAM refresh grows with swap size, so the saving does too"


def test_direct_reads_reduction_follows_its_inputs(repro):
    page = {float(k): v for k, v in repro["inputs"]["page_level"].items()}
    reductions = [page[s] for s in sorted(page, reverse=True)]  # 1.0 (nothing read-mostly) → 0.1
    assert reductions == sorted(reductions), reductions
    system = {float(k): v for k, v in repro["inputs"]["system_level"].items()}
    assert system[0.0] == pytest.approx(100.0)  # nothing ever written: every swapped page stays in place
    factors = sorted(system)
    assert [system[f] for f in factors] == sorted((system[f] for f in factors), reverse=True)
    caps = repro["inputs"]["captures"]
    assert {c["trace"] for c in caps} == {"gzip6_150k", "perl_wordfreq30k", "sort_paths8k", "sqlite3_btree"}
    for c in caps:
        for mem in ("50%", "25%"):
            r = c[mem]
            assert 0 < r["swap_ins_dr_on"] <= r["swap_ins_dr_off"]


def test_reproduction_report_sets_paper_beside_ours():
    out = cli(
        "reproduce", "dr-swap", "--categories", "browser", "--accesses-per-turn", "10000", "--captures", ""
    ).stdout
    # The printed report wraps its prose and table cells to 100 columns: phrases are read with
    # their line breaks as spaces.
    out = " ".join(out.split())
    assert (
        out.index("set by an input")
        < out.index("Table IV —")
        < out.index("Fig. 7 —")
        < out.index("Fig. 8 / Table V: mean")
    )
    assert "6,017" in out and "1,771" in out  # the paper's browser row at 128 MB, beside ours
    assert "fitted: reserved" in out and "Why ours differs" in out and "headline claims R" in out
    assert "Background power × 900 s is almost all of it" in out
    given = json.loads(
        cli(
            "reproduce", "dr-swap", "--switching", "--categories", "news", "--reserved", "1700", "--json"
        ).stdout
    )
    assert given["fits"]["readahead"] == {
        "page_cluster": 3,
        "reserved_mib": 1700,
        "how": "given with --reserved",
        "sweep": [],
    }


def test_user_energy_models(tmp_path):
    dev = write(
        tmp_path,
        "mine.toml",
        "[energy_models.cool-pcm]\nkind = 'lpddr'\npre_pdn_mw = 0.1\npre_stby_mw = 1.0\nact_pdn_mw = 0.1\n"
        "act_stby_mw = 1.0\nref_mw = 0\nact_mw = 100\nrd_mw = 100\nwr_mw = 200\ndq_mw = 20\nt_ck_ns = 2.5\n"
        "t_rcd_ns = 40\nt_wr_ns = 15\nrl_cycles = 6\nwl_cycles = 4\nbl = 8\nbw_bits = 32\nchip_bytes = 1073741824\n"
        "\n[cool]\nkind = 'nvm'\nenergy_model = 'cool-pcm'\n",
    )
    e = mobmem.swap_energy("cool-pcm", 0, 0, 100.0, 1 << 27, devices=dev)
    assert e["background_j"] == pytest.approx((0.1 + 1.0 + 0.1 + 1.0) * 1e-3 * 100.0)
    t = mobmem.Trace.category("news", rounds=1, accesses_per_turn=10_000)
    r = mobmem.simulate(t, memory="30%", swap="cool", devices=dev, direct_read=True)
    assert r.swap_energy["model"] == "cool-pcm" and r.config["swap"]["energy_model"] == "cool-pcm"
    with pytest.raises(mobmem.ConfigError, match="unknown energy model"):
        mobmem.swap_energy("warm-pcm", 1, 1, 1.0, 1, devices=dev)


def test_one_round_is_a_clear_error_not_a_division_by_zero():
    """Fig. 8's switching delay is measured after the first round: one round has none to measure."""
    from mobmem import reproduce
    from mobmem.errors import ConfigError

    with pytest.raises(ConfigError, match="--rounds 1: at least 2"):
        reproduce.compute("dr-swap", rounds=1)
    p = cli("reproduce", "dr-swap", "--rounds", "0", ok=False)
    assert p.returncode == 3 and "at least 2" in p.stderr and "Traceback" not in p.stderr


def test_a_table_iv_cell_reads_its_categorys_apps_swap_ins_and_zero_when_the_system_makes_them_all():
    from mobmem.reproduce.measures.dr_swap import apps_cell

    def cell(app_off: int, sys_off: int, app_on: int, sys_on: int) -> dict[str, int]:
        return {
            "swap_ins_dr_off": 1000,
            "swap_ins_dr_on": 400,
            "app_swap_faults_dr_off": app_off,
            "system_swap_faults_dr_off": sys_off,
            "app_swap_faults_dr_on": app_on,
            "system_swap_faults_dr_on": sys_on,
        }

    # Every swap fault the system processes': the apps swap in nothing, and no reduction is read.
    assert apps_cell(cell(0, 50, 0, 20)) == (0.0, 0.0, None)
    # Half the faults the apps': half the swap-ins, DR off and on.
    off, on, red = apps_cell(cell(25, 25, 10, 10))
    assert (off, on) == (500.0, 200.0) and red == pytest.approx(60.0)
    # Nothing faulted at all: nothing is the apps'.
    assert apps_cell(cell(0, 0, 0, 0))[:2] == (0.0, 0.0)
