"""Secret Pig, the toy third game added by following docs/adding-a-game.md alone: it passes the conformance kit
(`hegemon.testing`), serves a table through the web table's REST API and runs in the lab; and the kit fails a
game that leaks a hidden value or whose clones share state."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon import testing
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, Game, PlayerId, State
from hegemon.core.record import GameRecord, verify
from hegemon.core.roles import LabRole, Roles
from hegemon.games import game_names, get_game, register_game, registered_game, unregister_game
from hegemon.lab.run import GAMES_FILE, make_sweep, read_jsonl, run_sweep
from hegemon.server.app import create_app
from tests.pig.game import GAME, ROLES, PigGame, PigState

CONFIGS: list[dict[str, Any]] = [{"players": 2}, {"players": 3, "target": 30}]


def perturb(state: State, player: int) -> State | None:
    """Another state differing only in another player's secret bonus."""
    assert isinstance(state, PigState)
    for other, bonus in enumerate(state.bonus):
        if other != player:
            twin = state.clone()
            twin.bonus[other] = (bonus + 1) % 3
            return twin
    return None


@pytest.fixture(scope="module")
def pig() -> Iterator[Game]:
    with registered_game("pig", "tests.pig.game") as game:
        yield game
    assert "pig" not in game_names()


def test_the_registry_hook_registers_checks_and_forgets(pig: Game) -> None:
    assert get_game("PIG") is pig and "pig" in game_names()
    with pytest.raises(ConfigError, match="already registered"):
        register_game("pig", "tests.pig.game")
    with pytest.raises(ConfigError, match="not 'hog'"):
        register_game("hog", "tests.pig.game")
    assert "hog" not in game_names()
    with pytest.raises(ConfigError, match="not a registered plug-in"):
        unregister_game(game_names()[0] if game_names()[0] != "pig" else game_names()[1])


class Hog(PigGame):
    """Secret Pig under another name, for the registry's checks."""

    name = "hog"


def _lab() -> LabRole:
    from tests.pig.roles import LAB

    return LAB


def _bots_as_text() -> Any:
    from tests.pig.roles import BOTS

    return BOTS


class NoGlossary:
    """A game object that lacks two members of the contract."""

    def __init__(self) -> None:
        for k in dir(GAME):
            if not k.startswith("_") and k not in ("glossary", "roles"):
                setattr(self, k, getattr(GAME, k))
        self.name = "hog"


@pytest.mark.parametrize(
    ("roles", "error"),
    [
        (
            Roles(bots=ROLES.bots, lab=_lab),
            r"hog lacks the required role\(s\) text \(see hegemon.core.roles\)",
        ),
        (Roles(lab=_lab), r"hog lacks the required role\(s\) text, bots"),
        (Roles(text=_bots_as_text, bots=ROLES.bots), r"hog: the text role loads a BotRole, not a TextRole"),
        ({"text": "tests.pig.roles"}, r"hog: `roles` must be a hegemon.core.roles.Roles, not dict"),
        (None, r"tests.pig.broken.GAME lacks glossary, roles of the game contract"),
    ],
)
def test_a_game_missing_a_role_is_refused_at_registration(
    monkeypatch: pytest.MonkeyPatch, roles: Any, error: str
) -> None:
    """`register_game` checks the contract and every role when a game registers: a missing member or role, or a
    role of the wrong type, is a ConfigError naming it, and nothing is registered."""
    broken: Any = NoGlossary() if roles is None else Hog()
    if roles is not None:
        broken.roles = roles
    monkeypatch.setattr("tests.pig.broken.GAME", broken)
    with pytest.raises(ConfigError, match=error):
        register_game("hog", "tests.pig.broken")
    assert "hog" not in game_names()
    monkeypatch.setattr("tests.pig.broken.GAME", Hog())  # the same game with its roles registers
    with registered_game("hog", "tests.pig.broken") as hog:
        assert hog.roles.text().render is not None and hog.roles.boards() is None and hog.roles.news() is None
    assert "hog" not in game_names()


def test_the_conformance_kit_passes(pig: Game) -> None:
    testing.check_all(
        testing.Suite(
            pig, CONFIGS, perturb, playout_seeds=20, view_every=2, refusal_every=1, least_refusals=1
        )
    )


def test_perft_from_the_deal(pig: Game) -> None:
    state = pig.new_game({"players": 2}, 0)
    # 3 bonuses each, then only a roll, then 6 faces
    testing.check_perft(state, [3, 9, 9, 54])
    with pytest.raises(
        testing.ConformanceError,
        match=r"perft\(2\) = 9, expected 8 \(deal\); divide:\n  player 1 is dealt a bonus of 0: 3\n",
    ):
        testing.check_perft(state, [3, 8])


class LeakyPig(PigState):
    def view(self, player: PlayerId | None) -> dict[str, Any]:
        out = super().view(player)
        out["bonus"] = list(self.bonus)  # every bonus shown to everyone
        return out


class SharingPig(PigState):
    def clone(self) -> PigState:
        twin = SharingPig.__new__(SharingPig)
        twin.__dict__.update(self.__dict__)  # the lists are shared: applying to a clone changes the original
        return twin


class BrokenGame:
    """The real game whose states are of a broken class."""

    def __init__(self, game: Game, cls: type[PigState]) -> None:
        self.game, self.cls = game, cls

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def new_game(self, options: Any = None, seed: int = 0) -> PigState:
        state = self.cls.__new__(self.cls)
        state.__dict__.update(self.game.new_game(options, seed).__dict__)
        return state


def test_the_kit_fails_a_game_that_leaks_or_shares_state(pig: Game) -> None:
    leaky: Any = BrokenGame(pig, LeakyPig)
    with pytest.raises(testing.ConformanceError, match="view leaks"):
        testing.check_hidden_information(leaky, CONFIGS[0], perturb, every=2)
    sharing: Any = BrokenGame(pig, SharingPig)
    with pytest.raises(testing.ConformanceError, match="applying to a clone changed the original"):
        testing.check_clone_and_codec(sharing, CONFIGS[0])
    testing.check_clone_and_codec(
        BrokenGame(pig, PigState), CONFIGS[0]
    )  # a deliberately broken game for the kit to catch


def test_a_table_plays_to_the_end_through_the_rest_api(pig: Game) -> None:
    with TestClient(create_app(None, 0.0)) as c:
        assert "pig" in {g["name"] for g in c.get("/api/games").json()["games"]}
        r = c.post(
            "/api/tables", json={"game": "pig", "seed": 4, "seats": [{"human": True}, {"human": True}]}
        )
        assert r.status_code == 201, r.text
        res = r.json()
        tid, toks = res["id"], [s["token"] for s in res["seats"]]
        toks = [c.post(f"/api/tables/{tid}/seat", json={"token": t}).json()["token"] for t in toks]
        rng = random.Random(4)
        for _ in range(400):
            d = c.get(f"/api/tables/{tid}", params={"token": toks[0]}).json()
            if d["status"] != "playing":
                break
            bonus = d["view"]["bonus"]
            assert bonus[0] is not None and bonus[1] is None  # seat 1's secret never reaches seat 0
            cur = d["view"]["current_player"]
            assert cur in (0, 1), cur  # the table draws chance itself
            mine = c.get(f"/api/tables/{tid}", params={"token": toks[cur]}).json()
            if mine["view"]["rolls"] == 0:
                o = c.get(f"/api/tables/{tid}/odds", params={"declared": 2})
                assert o.status_code == 200 and o.json()["safe"] == "25/36", o.text
            body = {
                "token": toks[cur],
                "version": mine["version"],
                "action": rng.choice(mine["view"]["legal_actions"]),
            }
            r = c.post(f"/api/tables/{tid}/actions", json=body)
            assert r.status_code == 200, r.text
        refused = c.post(f"/api/tables/{tid}/actions", json={**body, "version": d["version"]})
        assert refused.status_code in (409, 422)
        assert d["status"] == "finished" and None not in d["view"]["bonus"]
        record = GameRecord.from_line(c.get(f"/api/tables/{tid}/record").text)
        assert record.game == "pig" and verify(pig, record) == []


def test_a_lab_compare_runs(pig: Game, tmp_path: Path) -> None:
    sweep = make_sweep("pig", "compare", ["greedy", "random"], 6, 2, ["target=10,30"])
    summary = run_sweep(sweep, tmp_path)
    records = read_jsonl(tmp_path / GAMES_FILE)
    assert summary["games"] == len(records) == 12
    assert all(verify(pig, GameRecord.from_json(r)) == [] for r in records[:4])
    assert {v["options"]["target"] for v in summary["variants"]} == {"10", "30"}
    assert "busts" in summary["variants"][0]["measures"]
    assert (tmp_path / "report.html").stat().st_size > 0
    assert CHANCE < 0
