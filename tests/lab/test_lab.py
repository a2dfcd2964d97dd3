"""The lab: outputs, resumability, paired seeds and rotated seats, backends giving equal results, the CLI."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hegemon.cli import app
from hegemon.core.errors import ConfigError
from hegemon.core.record import GameRecord, verify
from hegemon.games import get_game
from hegemon.lab.run import GAMES_FILE, make_sweep, plan_variants, read_jsonl, run_sweep
from hegemon.lab.sweep import plan_units


def sweep_polis(games: int = 8, seed: int = 3) -> Any:
    return make_sweep("polis", "compare", ["greedy", "random"], games, seed, ["siege=classic,diceless"])


def strip(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without wall-clock times, in unit order."""
    out = []
    for r in sorted(records, key=lambda r: r["meta"]["key"]):
        r = json.loads(json.dumps(r))
        r["meta"].pop("seconds")
        r["meta"].pop("cpu_seconds")
        out.append(r)
    return out


def test_compare_writes_records_tables_and_report(tmp_path: Path) -> None:
    summary = run_sweep(sweep_polis(), tmp_path)
    for f in ("games.jsonl", "games.csv", "report.html", "summary.json", "sweep.json"):
        assert (tmp_path / f).stat().st_size > 0, f
    records = read_jsonl(tmp_path / GAMES_FILE)
    assert len(records) == summary["games"] == 16
    g = get_game("polis")
    for r in records[:4]:
        assert verify(g, GameRecord.from_json(r)) == []
    html = (tmp_path / "report.html").read_text()
    assert "data:image/png;base64," in html and "Luck vs skill" in html and "<script" not in html
    csv_lines = (tmp_path / "games.csv").read_text().splitlines()
    assert len(csv_lines) == 17 and "sieges_attempted" in csv_lines[0]
    v0 = summary["variants"][0]
    for r in v0["seat_win_rate"]:
        assert 0 <= r["low"] <= r["rate"] <= r["high"] <= 1
    skill = v0["luck_vs_skill"][0]
    assert skill["stronger"] == "greedy" and skill["skill_rate"]["rate"] >= 0.75
    assert summary["comparisons"][0]["skill_rate"][0]["test"] == "paired_cluster_t"
    assert "sieges_succeeded" in v0["measures"] and "population" in v0["curves"]


def test_paired_seeds_and_rotated_seats(tmp_path: Path) -> None:
    run_sweep(sweep_polis(), tmp_path)
    records = read_jsonl(tmp_path / GAMES_FILE)
    seeds: dict[tuple[int, int], set[int]] = defaultdict(set)
    seat_counts: Counter[tuple[int, int, str]] = Counter()
    for r in records:
        m = r["meta"]
        seeds[(m["deal"], m["rotation"])].add(r["seed"])
        for j, b in enumerate(r["seats"]):
            seat_counts[(m["variant"], j, b)] += 1
    # the same seed for a deal in every variant (paired) and both rotations
    assert all(len(s) == 1 for s in seeds.values())
    assert len({next(iter(s)) for s in seeds.values()}) == 4
    # every bot on every seat equally often, in every variant
    assert set(seat_counts.values()) == {4}


def test_resume_recomputes_nothing_and_extends(tmp_path: Path) -> None:
    first = run_sweep(sweep_polis(4), tmp_path)
    assert first["computed"] == 8
    before = (tmp_path / GAMES_FILE).read_bytes()
    again = run_sweep(sweep_polis(4), tmp_path)
    assert again["computed"] == 0 and again["reused"] == 8
    assert (tmp_path / GAMES_FILE).read_bytes() == before
    # an interrupted write: a cut last line is dropped and only that game is played again
    data = before.rstrip(b"\n")
    (tmp_path / GAMES_FILE).write_bytes(data[: data.rfind(b"\n") + 1] + data[data.rfind(b"\n") + 1 :][:40])
    repaired = run_sweep(sweep_polis(4), tmp_path)
    assert repaired["computed"] == 1 and repaired["games"] == 8
    assert strip(read_jsonl(tmp_path / GAMES_FILE)) == strip(
        json.loads("[" + ",".join(before.decode().splitlines()) + "]")
    )
    more = run_sweep(sweep_polis(8), tmp_path)
    assert more["computed"] == 8 and more["games"] == 16


def test_other_sweep_in_same_directory_is_refused(tmp_path: Path) -> None:
    run_sweep(sweep_polis(2), tmp_path)
    with pytest.raises(ConfigError):
        run_sweep(sweep_polis(2, seed=4), tmp_path)


def test_processes_and_dask_equal_serial(tmp_path: Path) -> None:
    sweep = sweep_polis(6)
    serial = run_sweep(sweep, tmp_path / "serial")
    procs = run_sweep(sweep_polis(6), tmp_path / "procs", jobs=2, chunk=3)
    dask = run_sweep(sweep_polis(6), tmp_path / "dask", jobs=2, dask="local", chunk=2)
    a = strip(read_jsonl(tmp_path / "serial" / GAMES_FILE))
    assert a == strip(read_jsonl(tmp_path / "procs" / GAMES_FILE))
    assert a == strip(read_jsonl(tmp_path / "dask" / GAMES_FILE))
    assert (
        serial["variants"][0]["seat_win_rate"]
        == dask["variants"][0]["seat_win_rate"]
        == procs["variants"][0]["seat_win_rate"]
    )
    # a LocalCluster's start is timed apart from play (the games/s figure is play only); local backends start at once
    assert (
        dask["backend_start_seconds"] > 0 and serial["backend_start_seconds"] < dask["backend_start_seconds"]
    )
    for s in (serial, procs, dask):
        assert s["wall_seconds"] > 0 and s["games_per_second"] == pytest.approx(
            s["computed"] / s["wall_seconds"], rel=0.01
        )


def test_one_switch_at_a_time() -> None:
    variants, labels = plan_variants(
        [("naval_move", ["single_group", "per_trireme"]), ("garrison", ["a", "b", "c"])]
    )
    assert variants[0] == {"naval_move": "single_group", "garrison": "a"}
    assert len(variants) == 4
    for v in variants[1:]:
        assert sum(1 for k in v if v[k] != variants[0][k]) == 1
    assert labels[1:] == ["naval_move=per_trireme", "garrison=b", "garrison=c"]
    sweep = make_sweep(
        "spqrisiko",
        "compare",
        ["greedy", "random"],
        4,
        1,
        ["naval_move=single_group,per_trireme", "garrison=move_in_first,garrison_first"],
        players=3,
    )
    assert len(sweep.variants) == 3 and len(plan_units(sweep)) == 12
    with pytest.raises(ConfigError):
        make_sweep("spqrisiko", "compare", ["greedy", "random"], 4, 1, ["naval_move=sideways,per_trireme"])
    with pytest.raises(ConfigError):
        make_sweep("polis", "compare", ["greedy", "wizard"], 4, 1, [])


def test_cli_compare_tournament_report_json(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "spqr"
    res = runner.invoke(
        app,
        [
            "lab",
            "compare",
            "spqrisiko",
            "--option",
            "rules=house-1.2,official",
            "--players",
            "3",
            "--bots",
            "greedy,random",
            "--games",
            "2",
            "--option",
            "max_rounds=8",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["games"] == 4 and [v["label"] for v in summary["variants"]] == [
        "rules=house-1.2",
        "rules=official",
    ]
    assert "vp_empire" in summary["variants"][0]["measures"]
    res = runner.invoke(app, ["lab", "report", str(out), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["games"] == 4
    res = runner.invoke(
        app,
        [
            "lab",
            "tournament",
            "polis",
            "--bots",
            "random,greedy,mcts:4",
            "--games",
            "2",
            "--out",
            str(tmp_path / "t"),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    t = json.loads(res.stdout)["tournament"]
    assert t["bots"] == ["random", "greedy", "mcts:4"] and t["cross"][1][0]["n"] == 2
    res = runner.invoke(
        app,
        [
            "lab",
            "tournament",
            "polis",
            "--bots",
            "random,greedy,mcts:4",
            "--games",
            "2",
            "--out",
            str(tmp_path / "t"),
        ],
        env={"COLUMNS": "160"},
    )  # the same games, reused, as tables
    assert res.exit_code == 0 and "reused" in res.stdout, res.output
    assert (
        re.search(r"variant.*games.*Athens.*Sparta.*first player", res.stdout) and "seat 0" not in res.stdout
    )
    res = runner.invoke(app, ["lab", "report", str(tmp_path / "nothing")])
    assert res.exit_code == 2
