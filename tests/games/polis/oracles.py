"""Reference implementations of the Polis movement rules, kept as test oracles for the engine's cached fast
paths (tests/games/polis/test_fast_paths.py): plain bitmask closures, one source at a time."""

from __future__ import annotations

from hegemon.games.polis.board import Board
from hegemon.games.polis.rules.movement import _closure, _dest_union, _open_mask, _union
from hegemon.games.polis.rules.tables import unit_masks
from hegemon.games.polis.state import PolisState


def hoplite_dests(b: Board, us: list[int], them: list[int], src: int, open_mask: int | None = None) -> int:
    """Bitmask of the land territories a hoplite in `src` can reach by a land path or a sea path (§4.6,
    R34-R36): every territory passed through is not controlled by the opponent; start and destination may be."""
    om = _open_mask(us, them) if open_mask is None else open_mask
    land = _closure(b.land_union, 1 << src, om)
    seas = b.sea_adj_mask[src] & om
    if seas:
        seas |= _closure(b.sea_union, seas, om) & om
        land |= _union(b.land_union, seas)
    return land & ~(1 << src)


def galley_dests(b: Board, us: list[int], them: list[int], src: int, open_mask: int | None = None) -> int:
    """Bitmask of the seas a galley in `src` can reach through seas not controlled by the opponent (§4.6)."""
    om = _open_mask(us, them) if open_mask is None else open_mask
    return _closure(b.sea_union, 1 << src, om) & ~(1 << src)


def _sources(st: PolisState, galleys: bool) -> dict[int, int]:
    b = st.board
    s = st.active
    us = st.units[s]
    om = unit_masks(st.tables, us, st.units[1 - s])[0]
    want_land = not galleys
    is_land = b.is_land
    return {
        t: _dest_union(st, galleys, 1 << t, om) for t in range(b.n_terr) if us[t] and is_land[t] == want_land
    }
