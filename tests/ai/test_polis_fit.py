"""scripts/fit_polis.py: the terms it fits mirror the evaluation's strength, and the fit recovers known weights."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from hegemon.ai import GreedyBot, RandomBot
from hegemon.ai.games import polis as know
from hegemon.core.record import run_game
from hegemon.games import get_game

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("fit_polis", ROOT / "scripts" / "fit_polis.py")
assert spec is not None and spec.loader is not None
fit_polis = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit_polis)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSONL file of a few short Polis games (greedy against random, two siege rules, both seats)."""
    game = get_game("polis")
    path = tmp_path_factory.mktemp("fit") / "games.jsonl"
    with path.open("w") as fh:
        for seed, siege in ((3, "classic"), (4, "sacrifice"), (5, "diceless_sacrifice")):
            options = game.parse_options({"siege": siege})
            bots = [GreedyBot(seed), RandomBot(seed)] if seed % 2 else [RandomBot(seed), GreedyBot(seed)]
            names = ["greedy", "random"] if seed % 2 else ["random", "greedy"]
            agents = [lambda st, p, b=b: b.choose(st, p) for b in bots]
            _, rec = run_game(game, options, seed, agents, names, max_actions=600)
            fh.write(json.dumps(rec.to_json()) + "\n")
    return path


@pytest.mark.parametrize(
    "weights",
    [know.DEFAULT, know.SEARCH, know.SEARCH_ATHENS, know.Weights(project=1.0, unit=0.4, supply_danger=2.0)],
)
def test_terms_times_weights_are_the_strength(records: Path, weights: know.Weights) -> None:
    """Every position of the games, both sides: the weighted terms sum to `strength` (a term added to
    `strength` and not to `features` fails here)."""
    game = get_game("polis")
    checked = 0
    for line in records.read_text().splitlines():
        rec = json.loads(line)
        st = game.new_game(game.parse_options(rec["options"]), rec["seed"])
        for raw in rec["actions"]:
            for s in (0, 1):
                assert fit_polis.weighted(st, s, weights) == pytest.approx(
                    know.strength(st, s, weights), abs=1e-9
                )
                checked += 1
            st.apply(game.decode_action(raw))
    assert checked > 200


def test_positions_are_turn_starts_with_the_result(records: Path) -> None:
    rows = list(fit_polis.positions(records, None, know.SEARCH))
    assert rows
    assert {r[1] for r in rows} == {"classic", "sacrifice", "diceless_sacrifice"}
    assert all(len(r[3]) == len(fit_polis.TERMS) for r in rows)
    assert {r[4] for r in rows} <= {0.0, 0.5, 1.0}
    only = list(fit_polis.positions(records, "sacrifice", know.SEARCH))
    assert only and {r[1] for r in only} == {"sacrifice"}


def test_the_fit_recovers_a_known_logistic() -> None:
    """Results drawn from a logistic with known slopes: the fit finds them back (a sign or scale error fails)."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(20000, 3))
    true = np.array([0.8, -0.5, 0.25])
    p = 1 / (1 + np.exp(-(x @ true + 0.3)))
    y = (rng.random(20000) < p).astype(float)
    coef, intercept, loss = fit_polis.fit(x, y, 0.0)
    assert coef == pytest.approx(true, abs=0.06)
    assert intercept == pytest.approx(0.3, abs=0.06)
    assert loss < fit_polis.log_loss(x, y, np.zeros(3), 0.0)


def test_the_script_prints_the_weights(
    records: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.json"
    assert fit_polis.main([str(records), "--by-round", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "all rounds:" in text and "round 1:" in text and "scale: fitted" in text
    fitted = json.loads(out.read_text())
    assert set(fitted) >= {"scale", "unit", "silver", "hunger"}
    know.Weights(**fitted)  # usable as overrides
