"""The learned Polis evaluation (`ai/games/polis_value.py`, issue 30 item 3): the shipped weights load and say
how they were made, inference in plain Python agrees with the training script's numpy, a won siege is worth more
than a lost one, the search and greedy take it by name (`eval=learned`) and stay deterministic and fair, and the
training script reproduces its weights from its seed."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hegemon.ai import make_bot
from hegemon.ai.games import polis as know
from hegemon.ai.games import polis_value as pv
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.games import get_game
from hegemon.games.polis.rules import common

from .test_levels import _polis_battle, _polis_twin
from .test_polis_sieges import action_phase, find, place

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("train_polis_value", ROOT / "scripts" / "train_polis_value.py")
assert spec is not None and spec.loader is not None
train = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = train  # its worker processes (fork) find the script's functions by this name
spec.loader.exec_module(train)


def test_the_shipped_weights_load_and_say_how_they_were_made() -> None:
    data = json.loads(pv.WEIGHTS.read_text(encoding="utf-8"))
    meta = data["meta"]
    assert meta["command"].startswith("python scripts/train_polis_value.py")
    for key in ("seed", "games", "positions", "data_sha256", "hidden_units", "held_out_log_loss"):
        assert key in meta, key
    assert meta["positions"] > 10 * meta["games"] > 0
    held = meta["held_out_log_loss"]
    # the model predicts the held-out games better than a constant and than the hand evaluation's logistic
    assert held["model"] < held["constant"] and held["model"] < held["hand_refitted"]
    m = pv.model()
    assert len(m.hidden) == meta["hidden_units"] and len(m.mean) == len(pv.INPUTS)
    assert pv.WEIGHTS.stat().st_size < 100_000  # a small data file


def test_a_model_with_other_inputs_is_refused() -> None:
    data = json.loads(pv.WEIGHTS.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="inputs"):
        pv.ValueModel({**data, "inputs": list(reversed(data["inputs"]))})
    with pytest.raises(ValueError, match="match"):
        pv.ValueModel({**data, "skip": data["skip"][:-1]})


def _positions(count: int) -> list[Any]:
    """`count` positions of a greedy game under each siege rule, at the start of action-phase turns."""
    out = []
    for k, rule in enumerate(("classic", "sacrifice", "diceless", "diceless_sacrifice")):
        g = get_game("polis")
        st = g.new_game(g.parse_options({"siege": rule}), 10 + k)
        rng = random.Random(k)
        bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
        seen = 0
        while (p := st.current_player()) != TERMINAL and seen < count:
            if p == CHANCE:
                st.apply(sample_chance(st, rng))
                continue
            if st.phase == common.ACTION and not st.n_actions:
                out.append(st.clone())
                seen += 1
            st.apply(bots[p].choose(st, p))
    return out


def test_inference_agrees_with_the_training_scripts_numpy() -> None:
    data = json.loads(pv.WEIGHTS.read_text(encoding="utf-8"))
    params = {k: np.array(data[k]) for k in ("hidden", "hidden_bias", "out", "skip")}
    params["bias"] = np.array([data["bias"]])
    states = _positions(6)
    assert len(states) >= 12
    x = np.array([pv.inputs(st) for st in states])
    z = (x - np.array(data["mean"])) / np.array(data["scale"])
    expected = train.predict(params, z)
    got = [pv.learned_evaluate(st)[0] for st in states]
    assert got == pytest.approx(expected.tolist(), abs=1e-9)
    assert all(0.0 < v < 1.0 for v in got)
    # both sides' values sum to 1, and a finished game is valued by its result
    assert sum(pv.learned_evaluate(states[0])) == pytest.approx(1.0)


def test_a_hand_built_network_computes_what_it_says() -> None:
    n = len(pv.INPUTS)
    data: dict[str, Any] = {
        "inputs": list(pv.INPUTS),
        "mean": [0.0] * n,
        "scale": [2.0] * n,
        "hidden": [[0.0] * n],
        "hidden_bias": [0.5],
        "out": [1.0],
        "skip": [0.0] * n,
        "bias": -0.25,
    }
    data["skip"][pv.INPUTS.index("athens_score")] = 1.0
    data["hidden"][0][pv.INPUTS.index("sparta_score")] = -1.0
    m = pv.ValueModel(data)
    x = [0.0] * n
    x[pv.INPUTS.index("athens_score")] = 6.0
    x[pv.INPUTS.index("sparta_score")] = 4.0
    assert m.logit(x) == pytest.approx(-0.25 + 3.0 + math.tanh(0.5 - 2.0))


@pytest.mark.parametrize("rule", ["classic", "sacrifice"])
def test_a_won_siege_is_worth_more_than_a_lost_one(rule: str) -> None:
    """The same besiege action, its d4 rolled high (the polis taken) or low (the siege failed): the model
    values the besieger's position higher after the roll that took the polis."""
    st = action_phase(rule)
    s, _, _ = place(st, "megara", 3, pp=4)
    siege = find(st, "besiege", "megara")
    st.apply(siege)
    assert st.current_player() == CHANCE
    after = {}
    for roll, _p in st.chance_outcomes():
        c = st.clone()
        c.apply(roll)
        after[roll] = (c.owner[c.board.polis_index["megara"]] == s, pv.learned_evaluate(c)[s])
    won = [v for took, v in after.values() if took]
    lost = [v for took, v in after.values() if not took]
    assert won and lost
    assert min(won) > max(lost)


def test_the_bots_take_the_learned_evaluation_by_name() -> None:
    st = action_phase("classic")
    p = st.current_player()
    for spec_ in ("mcts:20:eval=learned", "mcts:normal:eval=learned", "greedy:eval=learned"):
        a, b = make_bot(spec_, 5), make_bot(spec_, 5)
        for bot in (a, b):
            if getattr(bot, "time_limit", None) is not None:
                bot.time_limit = None  # type: ignore[attr-defined]  # iterations only, as the lab runs it
        assert a.choose(st, p) == b.choose(st, p)  # deterministic given the seed
        assert a.rng.getstate() == b.rng.getstate()  # type: ignore[attr-defined]  # every shipped bot has its rng
    with pytest.raises(ConfigError, match="eval"):
        make_bot("mcts:20:eval=oracle", 1)
    with pytest.raises(ConfigError, match="eval"):
        make_bot("greedy:eval=oracle", 1)


def test_the_learned_search_does_not_read_the_opponents_cards() -> None:
    st = _polis_battle()
    me = st.current_player()
    twin = _polis_twin(st)
    assert twin.view(me) == st.view(me) and twin.to_json() != st.to_json()
    a, b = make_bot("mcts:30:eval=learned", 3), make_bot("mcts:30:eval=learned", 3)
    ra, rb = a.search(st, me), b.search(twin, me)  # type: ignore[attr-defined]  # an MctsBot
    assert {k: (v.n, v.w) for k, v in ra.children.items()} == {k: (v.n, v.w) for k, v in rb.children.items()}
    # its inputs are public: the twin's differ only in the hidden hand
    assert pv.inputs(st) == pv.inputs(twin)


def test_the_features_are_the_strengths_terms() -> None:
    """`strength` is the weighted sum of `features` (the fit's and the network's inputs)."""
    for st in _positions(3):
        for s in (0, 1):
            f = pv.features(st, s, know.SEARCH)
            coef = pv.coefficients(know.SEARCH)
            assert sum(c * v for c, v in zip(coef, f, strict=True)) == pytest.approx(
                know.strength(st, s, know.SEARCH)
            )


@pytest.mark.slow
def test_the_script_reproduces_its_weights_from_its_seed(tmp_path: Path) -> None:
    """Twice from the same seed, the same weights and the same data digest (the shipped file is checked the same
    way at its full size: `python scripts/train_polis_value.py --check`)."""
    outs = []
    for k in range(2):
        out = tmp_path / f"w{k}.json"
        args = ["--games", "3", "--boards", "default", "--hidden", "3", "--iters", "40", "--explore", "0.05"]
        args += ["--use", "leaves", "--jobs", str(1 + k), "--out", str(out)]  # one or two workers: the same
        assert train.main([*args, "--seed", "4"]) == 0
        outs.append(json.loads(out.read_text(encoding="utf-8")))
    assert train.same_weights(outs[0], outs[1])
    assert outs[0]["meta"]["positions"] > 0 and outs[0]["meta"]["games"] == 12
    m = pv.ValueModel(outs[0])  # the script writes what the engine loads
    assert len(m.hidden) == 3
    # --check retrains from the file's own settings and says whether the weights are the same
    assert train.main(["--check", "--out", str(tmp_path / "w0.json")]) == 0
    bad = dict(outs[0], bias=outs[0]["bias"] + 1.0)
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    assert train.main(["--check", "--out", str(tmp_path / "bad.json")]) == 1
