"""The optional hooks of a state (`core.game`: `ExplainsRefusals`, `SamplesChance`, `ViewsAtOnce`), found by
typed lookups checked once per class: a class that has a hook gets it used, one without gets the fallback."""

from __future__ import annotations

import random

from hegemon.core.actions import Action
from hegemon.core.errors import Refusal
from hegemon.core.game import chance_sampler, refusal_explainer, views
from hegemon.core.play import sample_chance, why_illegal
from hegemon.games import get_game
from tests.pig.game import Face, Hold, PigState, Roll
from tests.pig.options import PigOptions


class Sampling(PigState):
    def sample_chance(self, rng: random.Random) -> Action:
        return Face(6)


class Plain:
    """A state of no hook: `why_illegal` says what is legal instead, `sample_chance` draws by probability."""

    def __init__(self) -> None:
        self.inner = PigState(PigOptions())

    def __getattr__(self, name: str) -> object:
        if name in ("explain_illegal", "sample_chance", "views"):
            raise AttributeError(name)
        return getattr(self.inner, name)


def test_hooks_are_used_where_a_class_has_them_and_fallbacks_elsewhere() -> None:
    pig = PigState(PigOptions())
    for _ in range(2):  # dealt
        pig.apply(pig.chance_outcomes()[0][0])
    assert refusal_explainer(pig) is pig and chance_sampler(pig) is None
    assert why_illegal(pig, Hold()) == Refusal("hold", "pig_hold_first", "roll at least once before holding")
    pig.apply(Roll())
    assert sample_chance(pig, random.Random(1)) in {a for a, _ in pig.chance_outcomes()}
    fast = Sampling(PigOptions())
    fast.__dict__.update(pig.__dict__)
    assert chance_sampler(fast) is fast and sample_chance(fast, random.Random(1)) == Face(6)
    assert chance_sampler(pig) is None  # the answer is kept per class, not per first caller
    plain = Plain()
    assert refusal_explainer(plain) is None  # type: ignore[arg-type]  # a state without the hook, on purpose
    fallback = why_illegal(plain, Hold())  # type: ignore[arg-type]  # a state without the hook, on purpose
    assert fallback == Refusal("", "legal_now", "legal now: nothing", {"kinds": []})


def test_views_at_once_where_a_game_offers_them() -> None:
    state = get_game("spqrisiko").new_game({"players": 3}, 1)
    together = views(state, [None, 0, 1, 2])
    assert together == {p: state.view(p) for p in (None, 0, 1, 2)}
    pig = PigState(PigOptions())
    assert views(pig, [0, 1]) == {0: pig.view(0), 1: pig.view(1)}
