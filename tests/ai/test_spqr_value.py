"""The learned S.P.Q.RisiKo! evaluation (`ai/games/spqr_value.py`): the shipped weights load and say how they were
made, the inputs are the strength's terms, the values are chances that sum to one, a lead in victory points near
the target is worth more than the same position without it, the search takes it by name and stays deterministic
and fair, and the training script reproduces its weights from its seed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hegemon.ai import make_bot
from hegemon.ai.games import spqr_value as sv
from hegemon.ai.games import spqrisiko as know
from hegemon.core.errors import ConfigError
from hegemon.core.game import Outcome, Termination
from hegemon.lab.fitting import same_weights

from .test_bots import _spqr_hidden_twin, advance, spqr_cards_position

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("train_spqr_value", ROOT / "scripts" / "train_spqr_value.py")
assert spec is not None and spec.loader is not None
train = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = train  # its worker processes (fork) find the script's functions by this name
spec.loader.exec_module(train)


def _positions(count: int) -> list[Any]:
    return [advance("spqrisiko", 11 + k, lambda s, k=k: s.round >= 2 + k) for k in range(count)]


def test_the_shipped_weights_load_and_say_how_they_were_made() -> None:
    data = json.loads(sv.WEIGHTS.read_text(encoding="utf-8"))
    meta = data["meta"]
    assert meta["command"].startswith("python scripts/train_spqr_value.py")
    for key in ("seed", "games", "positions", "data_sha256", "held_out_log_loss", "bots", "explore"):
        assert key in meta, key
    assert meta["positions"] > 10 * meta["games"] > 0
    held = meta["held_out_log_loss"]
    # the model predicts the held-out games better than an even split and than the hand evaluation (whose
    # softmax is sharper than the results bear out: worse than the even split)
    assert held["model"] < held["even"] and held["model"] < held["hand"]
    assert len(sv.model().weights) == len(sv.INPUTS)
    assert sv.WEIGHTS.stat().st_size < 10_000  # a small data file


def test_a_model_with_other_inputs_is_refused() -> None:
    data = json.loads(sv.WEIGHTS.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="inputs"):
        sv.ValueModel({**data, "inputs": list(reversed(data["inputs"]))})
    with pytest.raises(ValueError, match="match"):
        sv.ValueModel({**data, "weights": data["weights"][:-1]})


def test_the_inputs_are_the_strengths_terms_and_the_values_chances() -> None:
    for st in _positions(3):
        rows = sv.inputs(st)
        terms = know.terms(st)
        late = sv.progress(st)
        assert 0.0 <= late <= 1.0
        for p, (row, t) in enumerate(zip(rows, terms, strict=True)):
            assert (row is None) == (t is None) == bool(st.eliminated[p])
            if row is None or t is None:
                continue
            assert row[: len(know.TERMS)] == [float(x) for x in t]
            assert row[len(know.TERMS)] == t[0] * late and row[len(know.TERMS) + 1] == t[1] * late
            seats = row[len(know.TERMS) + 2 :]
            assert sum(seats) <= 1.0 and (seats[0] == 1.0) == (p == st.current_player())
        # the hand strength is the terms weighed
        assert know.strengths(st) == pytest.approx(
            [sum(w * x for w, x in zip(know.WEIGHTS, t, strict=True)) for t in terms if t is not None]
        )
        v = sv.learned_evaluate(st)
        assert len(v) == st.n and sum(v) == pytest.approx(1.0) and all(0.0 < x < 1.0 for x in v)


def test_a_lead_near_the_target_is_worth_more() -> None:
    """Known answers: from a third of the way to the target on, more victory points are worth more to their
    player, and one short of the target is close to a win; a player out of the game is worth nothing, and a
    finished game is worth its result. (Early in a game the model weighs the points scored so far a little
    below nothing: who is about to score matters more there, and the seat and next-scoring inputs carry it.)"""
    st = _positions(1)[0]
    me = st.current_player()
    target = st.opts.vp_target
    assert target
    values = []
    for vp in range(target // 3, target):
        c = st.clone()
        c.vp[me] = vp
        values.append(sv.learned_evaluate(c)[me])
    assert values == sorted(values) and values[0] < values[-1]
    assert values[-1] > 0.9
    out = st.clone()
    other = (me + 1) % st.n
    out.eliminated[other] = True
    assert sv.learned_evaluate(out)[other] == 0.0
    over = st.clone()
    others = tuple(q for q in range(st.n) if q != me)
    over.terminal = Outcome(Termination.VP_TARGET, tuple(map(float, over.vp)), (me,), ((me,), others))
    assert sv.learned_evaluate(over) == [1.0 if p == me else 0.0 for p in range(st.n)]


def test_the_search_takes_it_by_name_deterministic_and_fair() -> None:
    st = spqr_cards_position()
    me = st.current_player()
    for spec_ in ("mcts:30:eval=learned", "mcts:normal:eval=learned"):
        a, b = make_bot(spec_, 5), make_bot(spec_, 5)
        for bot in (a, b):
            if getattr(bot, "time_limit", None) is not None:
                bot.time_limit = None  # type: ignore[attr-defined]  # iterations only, as the lab runs it
        move = a.choose(st, me)
        assert move == b.choose(st, me) and move in st.legal_actions()
        assert a.rng.getstate() == b.rng.getstate()  # type: ignore[attr-defined]  # every shipped bot has its rng
    with pytest.raises(ConfigError, match="eval"):
        make_bot("mcts:20:eval=oracle", 1)
    # two positions that differ only in another player's cards: the same search
    twin = _spqr_hidden_twin(st, me)
    assert twin.view(me) == st.view(me) and twin.to_json() != st.to_json()
    a, b = make_bot("mcts:30:eval=learned", 3), make_bot("mcts:30:eval=learned", 3)
    ra, rb = a.search(st, me), b.search(twin, me)  # type: ignore[attr-defined]  # an MctsBot
    assert {k: (v.n, v.w) for k, v in ra.children.items()} == {k: (v.n, v.w) for k, v in rb.children.items()}
    # the inputs count cards, never read them
    assert sv.inputs(st) == sv.inputs(twin)


@pytest.mark.slow
def test_the_script_reproduces_its_weights_from_its_seed(tmp_path: Path) -> None:
    """Twice from the same seed, on one worker and on two, the same weights and data digest (the shipped file is
    checked the same way at its full size: `python scripts/train_spqr_value.py --check`)."""
    outs = []
    for k in range(2):
        out = tmp_path / f"w{k}.json"
        args = ["--games", "1", "--bots", "greedy", "--seed", "4", "--jobs", str(1 + k), "--out", str(out)]
        assert train.main(args) == 0
        outs.append(json.loads(out.read_text(encoding="utf-8")))
    assert same_weights(outs[0], outs[1])
    assert (
        outs[0]["meta"]["games"] == len(train.RULES) * len(train.PLAYERS) and outs[0]["meta"]["positions"] > 0
    )
    sv.ValueModel(outs[0])  # the script writes what the engine loads
    assert train.main(["--check", "--out", str(tmp_path / "w0.json")]) == 0
    bad = dict(outs[0], weights=[w + 1.0 for w in outs[0]["weights"]])
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    assert train.main(["--check", "--out", str(tmp_path / "bad.json")]) == 1


def test_the_fit_recovers_known_weights() -> None:
    """The conditional logit's fit against a known answer: results drawn from known weights are fitted back
    (within sampling error) - the likelihood and its gradient agree."""
    import numpy as np

    rng = np.random.default_rng(3)
    m, k = 6000, len(sv.INPUTS)
    x = rng.normal(size=(m, 5, k))
    mask = np.ones((m, 5), dtype=bool)
    mask[: m // 2, 4] = False  # half the positions have four players
    true = np.linspace(-1.0, 1.0, k)
    p = train.chances(x, mask, true)
    winners = np.array([rng.choice(5, p=row) for row in p])
    y = np.zeros((m, 5))
    y[np.arange(m), winners] = 1.0
    w = train.fit(x, mask, y, 0.0)
    assert np.max(np.abs(w - true)) < 0.15
    assert train.log_loss(train.chances(x, mask, w), y) <= train.log_loss(p, y) + 1e-9
