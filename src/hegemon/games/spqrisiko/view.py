"""What one player may see: the whole board (it is public), every player's VP and card count, the discards,
and only that player's own hand. The deck is a count; deck order does not exist in the state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hegemon.core.game import CHANCE, PlayerId
from hegemon.games.spqrisiko import preview
from hegemon.games.spqrisiko.board import SYMBOLS
from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL, empire_sizes, score_turn, sea_controller

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState

BATTLE_KINDS = ("naval", "land", "sea", "strategic")


def owner_json(o: int) -> int | str | None:
    return "neutral" if o == NEUTRAL else (None if o == FREE else o)


def view(state: SpqrState, player: PlayerId | None) -> dict[str, Any]:
    """A JSON-ready dict of exactly what `player` (None: a spectator) may see, with the legal actions when
    it is that player's turn."""
    return views(state, [player])[player]


def views(state: SpqrState, players: Iterable[PlayerId | None]) -> dict[PlayerId | None, dict[str, Any]]:
    """`view(state, p)` for every p of `players`, the public part computed once (a server sends every seat
    its view after each move)."""
    public, empires = _public(state)
    cur = state.current_player()
    out: dict[PlayerId | None, dict[str, Any]] = {}
    for player in players:
        v = dict(public)
        v["you"] = player
        if player is not None and 0 <= player < state.n:
            ps = v["players"] = list(public["players"])
            ps[player] = ps[player] | {"hand": {SYMBOLS[i]: state.hands[player][i] for i in range(4)}}
            if not state.eliminated[player] and state.order:
                comp = [p for p in range(state.n) if not state.eliminated[p]]
                if state.opts.neutrals_compete:
                    comp.append(NEUTRAL)
                b = state.board
                v["score_preview"] = score_turn(
                    b, state.owner, state.triremes, state.power_centre, player, comp, empires
                )
        legal = state.legal_actions() if player is not None and cur == player else []
        v["legal_actions"] = [a.to_json() for a in legal]
        if legal:
            preview.annotate(v, state, legal)  # what a card set, a trireme or a bonus costs and brings
        out[player] = v
    return out


def _public(state: SpqrState) -> tuple[dict[str, Any], dict[int, int]]:
    """What everybody sees (every view shares it), and the empire sizes."""
    b = state.board
    cur = state.current_player()
    players = []
    empires = empire_sizes(b, state.owner)
    for p in range(state.n):
        players.append(
            {
                "seat": p,
                "vp": state.vp[p],
                "provinces": state.owner.count(p),
                "legionaries": sum(a for a, o in zip(state.armies, state.owner, strict=True) if o == p),
                "triremes": sum(state.triremes[p]),
                "cards": sum(state.hands[p]),
                "eliminated": state.eliminated[p],
                "empire": empires.get(p, 0),
                "vp_sources": dict(state.vp_sources[p]),
            }
        )
    seas = []
    for s in range(b.n_seas):
        seas.append(
            {
                "id": b.sea_ids[s],
                "name": b.sea_names[s],
                "triremes": [state.triremes[p][s] for p in range(state.n)],
                "controller": sea_controller(state.triremes, s),
            }
        )
    provinces = [
        {
            "id": b.province_ids[p],
            "name": b.province_names[p],
            "owner": owner_json(state.owner[p]),
            "armies": state.armies[p],
            "power_centre": state.power_centre[p],
        }
        for p in range(b.n_provinces)
    ]
    public: dict[str, Any] = {
        "game": "spqrisiko",
        "you": None,
        "round": state.round,
        "phase": state.phase_name(),
        "current_player": None if cur < 0 else cur,
        "chance": cur == CHANCE,
        "order": list(state.order),
        "active": state.order[state.turn] if state.order else None,
        "players": players,
        "provinces": provinces,
        "seas": seas,
        "deck": sum(state.deck),
        "discard": {SYMBOLS[i]: state.discard[i] for i in range(4)},
        "power_centres_left": state.opts.power_centres - state.pcs_built,
        "pool": state.pool,
        "bonus": {"triremes": state.bonus_triremes, "power_centres": state.bonus_pcs},
        "last_score": dict(state.vp_last),
        "battle": battle_json(state),
        "options": state.opts.to_json(),
        "outcome": state.terminal.to_json() if state.terminal else None,
    }
    return public, empires


def battle_json(state: SpqrState) -> dict[str, Any] | None:
    bt = state.battle
    if not bt:
        return None
    b = state.board
    kind = bt.kind
    if kind == 0:
        return {"kind": "naval", "sea": b.sea_ids[bt.source], "opponent": bt.opponent, "rolls": bt.rolls}
    return {
        "kind": BATTLE_KINDS[kind],
        "source": b.province_ids[bt.source],
        "target": b.province_ids[bt.target],
        "defender": owner_json(bt.opponent),
        "declared_alive": bt.alive if kind == 2 else None,
        "rolls": bt.rolls,
    }
