"""The learned Polis move ranking (`ai/games/polis_policy.py`, issue 30 item 2): the shipped weights load and say
how they were made, its inputs are the hand evaluation's terms (the hand logit a fixed combination of them), its
values are the mover's, the greedy bot and the rollout search take it by name (`eval=ranked`) and stay
deterministic and fair, the conditional-logit fit recovers known weights, and the training script reproduces its
weights from its seed."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hegemon.ai import make_bot
from hegemon.ai.games import polis as know
from hegemon.ai.games import polis_policy as pp
from hegemon.ai.rollout import RolloutBot, parse_spec
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.polis.rules import common

from .test_levels import _polis_battle, _polis_twin
from .test_polis_sieges import action_phase

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "train_polis_policy", ROOT / "scripts" / "train_polis_policy.py"
)
assert spec is not None and spec.loader is not None
train = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = train  # its worker processes (fork) find the script's functions by this name
spec.loader.exec_module(train)


def _positions(seed: int, games: int = 2) -> list[Any]:
    """Positions of random Polis games under two siege rules (every decision's)."""
    g = get_game("polis")
    out = []
    for i, rule in enumerate(["classic", "diceless_sacrifice"][:games]):
        st: Any = g.new_game(g.parse_options({"siege": rule}), seed + i)
        rng = random.Random(seed + i)
        while (p := st.current_player()) != TERMINAL:
            if p == CHANCE:
                st.apply(sample_chance(st, rng))
                continue
            out.append(st.clone())
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        out.append(st)
    return out


def test_the_shipped_weights_load_and_say_how_they_were_made() -> None:
    data = json.loads(pp.WEIGHTS.read_text(encoding="utf-8"))
    meta = data["meta"]
    assert meta["command"].startswith("python scripts/train_polis_policy.py")
    for key in ("seed", "games", "decisions", "data_sha256", "held_out", "bots"):
        assert key in meta, key
    assert meta["decisions"] > 10 * meta["games"] > 0
    held = meta["held_out"]
    # on the held-out games it names the search's choice more often than the hand evaluation, and fits it better
    assert held["model_top1"] > held["hand_top1"] and held["model_log_loss"] < held["hand_log_loss"]
    assert held["hand_log_loss"] < held["even_log_loss"]
    assert len(pp.model().weights) == len(pp.INPUTS)
    assert pp.WEIGHTS.stat().st_size < 20_000  # a small data file


def test_a_model_with_other_inputs_is_refused() -> None:
    data = json.loads(pp.WEIGHTS.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="inputs"):
        pp.RankModel({**data, "inputs": list(reversed(data["inputs"]))})
    with pytest.raises(ValueError, match="match"):
        pp.RankModel({**data, "weights": data["weights"][:-1]})
    with pytest.raises(ValueError, match="match"):
        pp.RankModel({**data, "weights": [float("nan")] * len(data["weights"])})


def test_the_hand_logit_is_a_combination_of_the_inputs() -> None:
    """`inputs . hand_coefficients` is greedy's logit for the mover (what the fit starts from and shrinks to)."""
    c = pp.hand_coefficients()
    checked = 0
    for st in _positions(11):
        if st.phase == common.OVER:
            continue
        for p in (0, 1):
            w = know.DEFAULT
            logit = (know.strength(st, p, w) - know.strength(st, 1 - p, w)) / w.scale
            assert sum(a * b for a, b in zip(c, pp.inputs(st, p), strict=True)) == pytest.approx(
                logit, abs=1e-9
            )
            checked += 1
    assert checked > 100


def test_the_value_is_the_movers_and_the_end_is_the_result() -> None:
    m = pp.model()
    seen = 0
    for st in _positions(12):
        if st.phase == common.OVER:
            assert pp.ranked_value(st, 0) == know.evaluate(st) == pp.ranked_value(st, 1)
            continue
        for p in (0, 1):
            v = pp.ranked_for(p)(st)
            assert v[0] + v[1] == pytest.approx(1.0) and 0.0 < v[p] < 1.0
            # a higher score is a higher value for that player: the logistic of the score
            assert v[p] == pytest.approx(1.0 / (1.0 + np.exp(-m.score(st, p))))
            seen += 1
    assert seen > 100


def test_the_bots_take_the_ranking_by_name_deterministic() -> None:
    st = action_phase("classic")
    p = st.current_player()
    for spec_ in ("greedy:eval=ranked", "rollout:2:candidates=3:eval=ranked"):
        a, b = make_bot(spec_, 5), make_bot(spec_, 5)
        assert a.choose(st, p) == b.choose(st, p)  # deterministic given the seed
        assert a.rng.getstate() == b.rng.getstate()  # type: ignore[attr-defined]  # both bots keep their rng
    assert parse_spec("4:eval=ranked")["evaluation"] == "ranked"
    with pytest.raises(ConfigError, match="eval"):
        parse_spec("4:eval=oracle")
    # a game without the ranking refuses it when the bot first plays there
    g = get_game("spqrisiko")
    sp: Any = g.new_game(g.parse_options({"players": 3}), 1)
    while sp.current_player() == CHANCE:
        sp.apply(sample_chance(sp, random.Random(1)))
    with pytest.raises(ConfigError, match="ranked"):
        make_bot("greedy:eval=ranked", 1).choose(sp, sp.current_player())


def test_the_ranked_playouts_change_the_search_and_read_no_hidden_cards() -> None:
    st = _polis_battle()
    me = st.current_player()
    twin = _polis_twin(st)
    assert twin.view(me) == st.view(me) and twin.to_json() != st.to_json()
    a, b = RolloutBot(3, playouts=3, evaluation="ranked"), RolloutBot(3, playouts=3, evaluation="ranked")
    assert a.choose(st, me) == b.choose(twin, me)
    assert a.last_values == b.last_values  # the same playouts whatever the opponent holds
    assert pp.inputs(st, me) == pp.inputs(twin, me)  # its inputs are public
    plain = RolloutBot(3, playouts=3)
    plain.choose(st, me)
    assert plain.last_values != a.last_values  # the playouts' moves are the ranking's, not greedy's


def test_the_fit_recovers_known_weights() -> None:
    """The conditional logit's fit against a known answer: choices drawn from known weights (the hand logit
    times 2 plus a correction) are fitted back within sampling error; without the correction the fit is worse."""
    rng = np.random.default_rng(5)
    m, width, k = 8000, 6, len(pp.INPUTS)
    x = rng.normal(size=(m, width, k))
    mask = np.ones((m, width), dtype=bool)
    mask[: m // 2, 5] = False  # half the decisions have five candidates
    true = 2.0 * np.array(pp.hand_coefficients()) + np.linspace(-0.5, 0.5, k)
    p = train.probabilities(x @ true, mask)
    picks = np.array([rng.choice(width, p=row) for row in p])
    q = np.zeros((m, width))
    q[np.arange(m), picks] = 1.0
    w = train.fit(x, mask, q, 0.0)
    assert np.max(np.abs(w - true) / np.maximum(1.0, np.abs(true))) < 0.1  # the hand logit's weights reach 10
    hand_only = train.fit(x, mask, q, 0.0, correct=False)
    fitted = train.choice_loss(train.probabilities(x @ w, mask), q)
    assert fitted <= train.choice_loss(p, q) + 1e-9
    assert fitted < train.choice_loss(train.probabilities(x @ hand_only, mask), q)


def test_the_choice_is_the_best_mean_result_with_ties_split() -> None:
    v = np.array([[0.5, 0.75, 0.75, 0.0], [0.5, 0.5, 0.5, 0.0]])
    mask = np.array([[True, True, True, True], [True, True, True, False]])
    q, useful = train.choices(v, mask)
    assert q[0].tolist() == [0.0, 0.5, 0.5, 0.0]
    assert useful.tolist() == [True, False]  # every candidate alike: nothing to learn


@pytest.mark.slow
def test_the_script_reproduces_its_weights_from_its_seed(tmp_path: Path) -> None:
    """Once on one worker, then `--check` on two: the same weights from the same seed, whatever the workers (the
    shipped file is checked the same way at its full size: `python scripts/train_polis_policy.py --check`); a file
    whose weights differ fails the check."""
    out = tmp_path / "w0.json"
    args = ["--games", "1", "--bots", "rollout:1:candidates=3", "--seed", "4", "--jobs", "1"]
    assert train.main([*args, "--out", str(out)]) == 0
    made = json.loads(out.read_text(encoding="utf-8"))
    assert made["meta"]["games"] == 4 and made["meta"]["decisions"] > 0
    pp.RankModel(made)  # the script writes what the engine loads
    assert train.main(["--check", "--jobs", "2", "--out", str(out)]) == 0
    bad = dict(made, weights=[w + 1.0 for w in made["weights"]])
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    assert train.main(["--check", "--jobs", "2", "--out", str(tmp_path / "bad.json")]) == 1
