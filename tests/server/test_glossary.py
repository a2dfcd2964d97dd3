"""The tooltips' data: every event, project and combat formation of Polis and every card symbol and the power
centre of S.P.Q.RisiKo!, with the numbers the engine uses; each has a name in both languages."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from hegemon.games.polis.board import DEFAULT_BOARD
from hegemon.games.polis.board import load_board as polis_board
from hegemon.games.spqrisiko import board as spqr_board
from hegemon.server.app import create_app

from .test_client_texts import EN, IT


def test_glossary_matches_the_engine_data() -> None:
    with TestClient(create_app(None)) as c:
        po = c.get("/api/games/polis/glossary").json()
        sp = c.get("/api/games/spqrisiko/glossary").json()
        assert c.get("/api/games/chess/glossary").status_code == 404
    b = polis_board(None)
    assert set(po["events"]) == set(b.event_ids) and len(po["events"]) == 40
    assert set(po["projects"]) == set(b.project_ids) and len(po["projects"]) == 14
    assert po["projects"]["parthenon"] == {"name": "Parthenon", "symbol": "temple", "cost": {"silver": 4, "wood": 1, "oil": 1},
                                          "immediate": 3, "posterity": 4}  # fmt: skip
    assert sum(len(f["values"]) for f in po["formations"].values()) == 24
    holy = po["events"]["holy_war"]["effects"]
    assert {
        "type": "place_units",
        "side": "sparta",
        "unit": "hoplite",
        "territory": "thessalia",
        "count": 1,
    } in holy
    assert po["names"]["thessalia"] == "Thessalia"
    assert sp["cards"] == {"legionary": 25, "banner": 15, "trireme": 10, "arena": 5}
    assert sp["power_centres"] == 12 and sp["set_alike"] == 8 and sp["set_different"] == 10


def test_every_effect_and_symbol_has_words_in_both_languages() -> None:
    with TestClient(create_app(None)) as c:
        po = c.get("/api/games/polis/glossary").json()
        sp = c.get("/api/games/spqrisiko/glossary").json()
    kinds = {e["type"] for ev in po["events"].values() for e in ev["effects"]}
    for k in kinds:
        keys = {"place_units": ["tip.eff.place_hoplite", "tip.eff.place_galley"], "polis_population": ["tip.eff.pop_up", "tip.eff.pop_down"],
                "market_shift": ["tip.eff.cheaper", "tip.eff.dearer"], "remove_units": ["tip.eff.remove"], "close_market": ["tip.eff.close_market"],
                "exhaust_tribute": ["tip.eff.exhaust"], "first_player": ["tip.eff.first"]}.get(k, [f"tip.eff.{k}"])  # fmt: skip
        for key in keys:
            assert (key in EN and key in IT and EN[key] != IT[key]) or key in (
                "tip.eff.gain",
                "tip.eff.lose",
            ), key
    for sym in sp["cards"]:
        assert f"tip.cards.{sym}" in EN and f"tip.cards.{sym}" in IT
    for p in po["projects"].values():
        assert f"tip.symbol.{p['symbol']}" in EN and f"tip.symbol.{p['symbol']}" in IT


def test_a_table_with_a_corrected_board_has_that_boards_numbers(tmp_path: Path) -> None:
    """The tooltips of a table created with a corrected board file show that file's numbers (issue 12 item 4);
    other tables, and the game's own glossary, keep the shipped board's."""
    polis = Path(DEFAULT_BOARD).read_text(encoding="utf-8")
    # the Parthenon gives 5 prestige at once instead of 3
    at = polis.index('id = "parthenon"')
    end = polis.index("[[", at)
    block = re.sub(r"immediate_prestige = \d+", "immediate_prestige = 5", polis[at:end])
    polis = polis[:at] + block + polis[end:]
    spqr = (Path(spqr_board.__file__).with_name("data") / "board.toml").read_text(encoding="utf-8")
    spqr = re.sub(r"(?m)^legionary = 25$", "legionary = 31", spqr)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as c:
        t1 = c.post("/api/tables", json={"game": "polis", "board_data": polis, "seed": 1,
                                         "seats": [{"human": True}, {"bot": "random"}]}).json()  # fmt: skip
        t2 = c.post(
            "/api/tables", json={"game": "polis", "seed": 1, "seats": [{"human": True}, {"bot": "random"}]}
        ).json()
        t3 = c.post("/api/tables", json={"game": "spqrisiko", "players": 3, "board_data": spqr, "seed": 1,
                                         "seats": [{"human": True}, {"bot": "random"}, {"bot": "random"}]}).json()  # fmt: skip
        assert c.get(f"/api/tables/{t1['id']}/glossary").json()["projects"]["parthenon"]["immediate"] == 5
        assert c.get(f"/api/tables/{t2['id']}/glossary").json()["projects"]["parthenon"]["immediate"] == 3
        assert c.get("/api/games/polis/glossary").json()["projects"]["parthenon"]["immediate"] == 3
        assert c.get(f"/api/tables/{t3['id']}/glossary").json()["cards"]["legionary"] == 31
        assert c.get("/api/games/spqrisiko/glossary").json()["cards"]["legionary"] == 25
        assert c.get("/api/tables/nosuch/glossary").status_code == 404
    # each game says which board its table's options play on (the upload's content-hash name); the server asks it
    # and never reads an option by name, and a restarted server reloads the same boards for the same glossaries
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as c:
        mgr = c.app.state.manager
        for t, board in ((t1, True), (t2, False), (t3, True)):
            table = mgr.get(t["id"])
            name = table.game.board_name(table.options)
            assert (tmp_path / "boards" / name).is_file() if board else name is None, name
        assert c.get(f"/api/tables/{t1['id']}/glossary").json()["projects"]["parthenon"]["immediate"] == 5
        assert c.get(f"/api/tables/{t2['id']}/glossary").json()["projects"]["parthenon"]["immediate"] == 3
        assert c.get(f"/api/tables/{t3['id']}/glossary").json()["cards"]["legionary"] == 31
