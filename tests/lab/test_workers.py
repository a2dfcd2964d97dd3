"""Workers write their own records and the parent only merges: part files, light records for the summary,
leftover parts of an interrupted run merged on the next run, no game twice."""

from __future__ import annotations

import json
from pathlib import Path

from hegemon.lab.backends import PARTS_DIR
from hegemon.lab.run import GAMES_FILE, make_sweep, read_jsonl, run_sweep
from hegemon.lab.sweep import Sweep, Unit, light, plan_units, play_unit, record_line, run_units_to_file


def sweep(games: int = 4) -> Sweep:
    return make_sweep("polis", "compare", ["greedy", "random"], games, 5, ["siege=classic,sacrifice"])


def test_a_task_writes_its_records_and_returns_light_ones(tmp_path: Path) -> None:
    sw = sweep()
    units = plan_units(sw)[:3]
    part = tmp_path / "part.jsonl"
    got = run_units_to_file(sw.to_json(), [(u.variant, u.pair, u.deal, u.rotation) for u in units], str(part))
    lines = part.read_text().splitlines(keepends=True)
    assert len(lines) == len(got) == 3
    for line, rec, u in zip(lines, got, units, strict=True):
        full = json.loads(line)
        assert "actions" not in rec and rec["meta"]["key"] == u.key == full["meta"]["key"]
        assert rec["meta"]["actions"] == len(full["actions"]) > 0
        assert light(full) == rec
        again = play_unit(sw, Unit(*map(int, u.key.split("/"))))
        again["meta"]["seconds"] = full["meta"]["seconds"]
        again["meta"]["cpu_seconds"] = full["meta"]["cpu_seconds"]
        assert record_line(again) == line


def test_parallel_run_leaves_no_parts_and_matches_the_summary_of_the_file(tmp_path: Path) -> None:
    summary = run_sweep(sweep(6), tmp_path, jobs=2, chunk=2)
    assert not (tmp_path / PARTS_DIR).exists()
    records = read_jsonl(tmp_path / GAMES_FILE)
    assert len(records) == summary["games"] == 12 == summary["computed"]
    assert len({r["meta"]["key"] for r in records}) == 12
    rebuilt = json.loads((tmp_path / "summary.json").read_text())
    assert rebuilt["variants"][0]["length"] == summary["variants"][0]["length"]


def test_leftover_parts_of_an_interrupted_run_are_merged_not_replayed(tmp_path: Path) -> None:
    sw = sweep()
    units = plan_units(sw)
    parts = tmp_path / PARTS_DIR
    parts.mkdir()
    part = parts / "part-000003.jsonl"
    run_units_to_file(sw.to_json(), [(u.variant, u.pair, u.deal, u.rotation) for u in units[:3]], str(part))
    with part.open("a") as fh:
        fh.write('{"cut short')  # the task was killed mid-line
    summary = run_sweep(sweep(), tmp_path, jobs=2, chunk=2)
    assert summary["reused"] == 3 and summary["computed"] == len(units) - 3
    records = read_jsonl(tmp_path / GAMES_FILE)
    assert sorted(r["meta"]["key"] for r in records) == sorted(u.key for u in units)
    assert not parts.exists()
