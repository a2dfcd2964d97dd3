"""Exact odds of an attack or a siege in a table's current position, for the client to show before the player
commits: S.P.Q.RisiKo! land attacks, sea attacks and naval combats (`games/spqrisiko/odds.py`), Polis sieges
(`games/polis/odds.py`). The numbers are read from the position, so the client cannot ask about anything else."""

from __future__ import annotations

from typing import Any

from hegemon.core.errors import HegemonError
from hegemon.server.protocol import ServerError


def position_odds(game: str, state: Any, seat: int | None, q: dict[str, str]) -> dict[str, Any]:
    """Odds of the attack described by the query `q` in `state` for the player on turn."""
    try:
        if game == "spqrisiko":
            return _spqr(state, q)
        if game == "polis":
            return _polis(state, q)
    except (KeyError, ValueError, IndexError, HegemonError) as e:
        raise ServerError("bad_request", f"cannot compute these odds: {e}") from None
    raise ServerError("bad_request", f"no odds for {game}")


def _int(q: dict[str, str], name: str, default: int | None = None) -> int:
    v = q.get(name)
    if v is None:
        if default is None:
            raise ValueError(f"missing {name}")
        return default
    return int(v)


def _spqr(st: Any, q: dict[str, str]) -> dict[str, Any]:
    from hegemon.games.spqrisiko import odds

    b = st.board
    me = st.order[st.turn] if st.order else 0
    kind = q.get("kind", "land")
    if kind == "land":
        s = b.province_index[q["source"]]
        t = b.province_index[q["target"]]
        return odds.land_position(st, s, t, _int(q, "stop_at", 1)).to_json()
    if kind == "sea":
        t = b.province_index[q["target"]]
        declared = _int(q, "declared")
        return odds.sea_attack(
            declared, st.armies[t], continue_below_defender=st.opts.sea_attack_below_defender
        ).to_json()
    if kind == "naval":
        s = b.sea_index[q["sea"]]
        o = _int(q, "opponent")
        return odds.naval_combat(st.triremes[me][s], st.triremes[o][s]).to_json()
    raise ValueError(f"unknown kind {kind!r}")


def _polis(st: Any, q: dict[str, str]) -> dict[str, Any]:
    from hegemon.games.polis import odds

    b = st.b
    p = b.polis_index[q["polis"]]
    side = st.current_player()
    if side < 0:
        side = 0
    t = b.p_terr[p]
    owner = st.owner[p]
    return odds.siege_odds(
        b.p_fort[p],
        st.units[side][t],
        st.opts.siege,
        st.pp[side],
        neutral=owner < 0,
        population=st.pop[p] if owner >= 0 else None,
    )
