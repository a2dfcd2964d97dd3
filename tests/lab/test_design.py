"""The designer's game metrics (`lab.design`): each metric on hand-made lead series with known answers, and a
real sweep carrying them into summary.json (with intervals clustered by deal), the comparison (Holm-adjusted
with the rest), games.csv, games.parquet and the report in both languages."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hegemon.games import get_game
from hegemon.lab.design import METRICS, Tracker, design_metrics, lead_for
from hegemon.lab.measures import measures_for
from hegemon.lab.report import render_html
from hegemon.lab.run import make_sweep, run_sweep
from hegemon.lab.sweep import play_measured


def test_a_comeback_game() -> None:
    # seat 1 trails, takes the lead at decision 3, loses it at 4 (tie: no change), retakes it at 5 for good
    leads = [[0, 0], [2, 0], [5, 1], [3, 4], [4, 4], [4, 6]]
    m = design_metrics(leads, [3, 1, 4, 2, 5, 3], [4, 9], [1], [4.0, 9.0], "end_of_rounds")
    assert m["completed"] == 1
    assert m["lead_changes"] == 1  # 0 led, then 1; the tie at decision 4 pauses the lead
    assert m["decided_at"] == pytest.approx(5 / 6)  # leads from decision 5 (of 6) to the end
    assert m["drama"] == 4.0  # 5 - 1 at decision 2
    assert m["behind_share"] == pytest.approx(2 / 6)  # behind at decisions 1 and 2
    assert m["margin"] == 5.0
    assert m["branching"] == pytest.approx(18 / 6)


def test_a_wire_to_wire_win_and_a_lead_that_swings() -> None:
    m = design_metrics([[1, 0], [3, 1], [4, 2]], [2, 2, 2], [6, 2], [0], [6.0, 2.0], "vp_target")
    assert (m["decided_at"], m["lead_changes"], m["drama"], m["behind_share"]) == (0.0, 0, 0.0, 0.0)
    swings = design_metrics([[1, 0], [0, 1], [1, 0], [0, 1]], [2] * 4, [2, 0], [0], [2.0, 0.0], "vp_target")
    assert swings["lead_changes"] == 4 and swings["decided_at"] == 1.0  # 0 leads only after the last decision


def test_three_seats_and_a_win_otherwise_than_on_score() -> None:
    # seat 2 wins (say, by eliminating a capital) while seat 0 leads on score at the end
    m = design_metrics(
        [[1, 0, 0], [1, 2, 0], [3, 2, 1]], [4, 4, 4], [5, 2, 3], [2], [5.0, 2.0, 3.0], "elimination"
    )
    assert m["decided_at"] == 1.0 and m["lead_changes"] == 2
    assert m["drama"] == 2.0 and m["behind_share"] == 1.0 and m["margin"] == -2.0


def test_a_shared_win_and_a_game_cut_by_the_action_limit() -> None:
    tie = design_metrics([[1, 0], [1, 1]], [2, 2], [3, 3], [0, 1], [3.0, 3.0], "end_of_rounds")
    assert tie["decided_at"] is None and tie["drama"] is None and tie["behind_share"] is None
    assert tie["margin"] == 0.0 and tie["completed"] == 1
    cut = design_metrics([[1, 0], [1, 2]], [2, 2], [1, 2], [], [], "unfinished")
    assert cut["completed"] == 0 and cut["margin"] is None and cut["decided_at"] is None
    assert cut["lead_changes"] == 1 and set(cut) == set(METRICS)


def test_the_tracker_changes_no_move() -> None:
    from hegemon.ai import make_bot

    game = get_game("polis")
    opts = game.parse_options(dict(game.selfplay_defaults))

    def play(tracker: Tracker | None) -> list[dict[str, object]]:
        bots = [make_bot("random", 1), make_bot("random", 2)]
        return play_measured(game, opts, 7, bots, measures_for("polis"), tracker)[1]

    tracker = Tracker(lead_for("polis"))
    assert play(tracker) == play(None)
    assert tracker.legal and len(tracker.leads) == len(tracker.legal) and all(n >= 1 for n in tracker.legal)


def test_a_sweep_reports_the_metrics_everywhere(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    s = run_sweep(
        make_sweep("polis", "compare", ["greedy", "random"], 2, 3, ["siege=classic,diceless"]), tmp_path
    )
    with (tmp_path / "games.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4
    for row in rows:
        assert row["completed"] == "1" and float(row["branching"]) > 1
        assert 0 <= int(row["lead_changes"]) <= int(row["decisions"])
        if (
            len(row["winners"].split("|")) == 1
        ):  # the lead signal is the final score: the margin agrees with it
            w = int(row["winners"])
            assert float(row["margin"]) == float(row[f"score_{w}"]) - float(row[f"score_{1 - w}"])
            assert 0.0 <= float(row["decided_at"]) <= 1.0 and float(row["drama"]) >= 0
    table = pq.read_table(tmp_path / "games.parquet").to_pylist()
    assert all(k in table[0] for k in METRICS) and table[0]["branching"] == float(rows[0]["branching"])
    for v in s["variants"]:
        d = v["design"]
        assert d["completed"]["rate"] == 1.0
        b = d["branching"]
        assert b["low"] <= b["mean"] <= b["high"] and b["n"] == 2
    c = s["comparisons"][0]["design"]
    assert set(c) >= {"completed", "lead_changes", "branching"}
    assert all("p_adjusted" in e for e in c.values())  # adjusted with the report's other tests
    for lang, head, sentence in (
        ("en", "Game metrics", "How many legal moves a player has to choose from"),
        ("it", "Metriche di gioco", "Tra quante mosse legali sceglie"),
    ):
        page = render_html(s, lang)
        assert head in page and sentence in page
