"""Attacks: sea attacks declared and fought to the end [R 12], land attacks with the dice chosen before each
roll [R 10], [R 13], the garrisons [R 14], moving in after a conquest, and eliminations [R 18]. The dice of a
naval combat go through here too (`legal_battle`, `apply_roll_dice`, `apply_roll`), fought by `navy`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.core.actions import Action
from hegemon.core.game import Termination
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko import phase as PH
from hegemon.games.spqrisiko.combat import resolve
from hegemon.games.spqrisiko.phase import Phase
from hegemon.games.spqrisiko.records import B_LAND, B_NAVAL, B_SEA, ROLLS, Battle
from hegemon.games.spqrisiko.rules import navy
from hegemon.games.spqrisiko.rules.common import (
    attack_floor,
    attack_keep,
    defender_dice,
    finish,
    garrison,
    move_after_battle,
    protected,
)
from hegemon.games.spqrisiko.rules.index import sea_changed, set_owner
from hegemon.games.spqrisiko.scoring import NEUTRAL

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState


# ------------------------------------------------------------------------------------- sea attacks [R 12]


def _sea_sources(st: SpqrState, me: int) -> list[tuple[int, int]]:
    """(province, legionaries that may sail) of every province that may launch a sea attack now: all but its
    garrison [R 14.3]."""
    armies, coasts, done, ne = st.armies, st.board.coasts, st.sea_conquered, st.ne
    out = []
    for s in st.provs[me]:
        a = armies[s]
        if a < 2 or done[s] or not coasts[s]:
            continue
        keep = 2 if ne[s] else 1
        if a > keep:
            out.append((s, a - keep))
    return out


def _sea_targets(st: SpqrState, me: int, s: int, avail: int) -> list[Action]:
    owner, armies, tri = st.owner, st.armies, st.triremes
    mine_row = tri[me]
    hit = st.attacked_by_sea
    out = []
    for t, sea, a in st.acts.sea_attack[s]:
        mine = mine_row[sea]
        if not mine:
            continue
        o = owner[t]
        if o == me or hit[t]:
            continue
        theirs = tri[o][sea] if o >= 0 else 0
        dd = armies[t] if armies[t] < 3 else 3
        if mine <= theirs or avail < dd or protected(st, t):
            continue
        out.append(a)
    return out


def legal_sea_attack(st: SpqrState, me: int) -> list[Action]:
    out: list[Action] = []
    for s, avail in _sea_sources(st, me):
        out.extend(_sea_targets(st, me, s, avail))
    out.append(A.DONE)
    return out


def has_sea_attack(st: SpqrState, me: int) -> bool:
    for s, avail in _sea_sources(st, me):
        if _sea_targets(st, me, s, avail):
            return True
    return False


def apply_sea_attack(st: SpqrState, a: A.SeaAttack) -> None:
    pidx = st.board.province_index
    s, t = pidx[a.source], pidx[a.target]
    st.attacked_by_sea[t] = True
    st.battle = Battle(B_SEA, s, t, st.owner[t])
    st.phase = PH.DECLARE


def declare_range(st: SpqrState, me: int) -> tuple[int, int]:
    bt = st.battle
    assert bt is not None
    return defender_dice(st, bt.target), st.armies[bt.source] - garrison(st, bt.source, me)


def legal_declare(st: SpqrState, me: int) -> list[Action]:
    lo, hi = declare_range(st, me)
    return st.acts.declare(lo, hi)


def apply_declare(st: SpqrState, a: A.Declare) -> None:
    bt = st.battle
    assert bt is not None
    k = a.count
    st.armies[bt.source] -= k
    bt.alive = k
    st.phase = PH.SEA_BATTLE
    st.chance = ROLLS[min(3, k)][defender_dice(st, bt.target)]


# ------------------------------------------------------------------------------------ land attacks [R 13]


def legal_land_attack(st: SpqrState, me: int) -> list[Action]:
    out = _land_attacks(st, me, False)
    out.append(A.DONE)
    return out


def has_land_attack(st: SpqrState, me: int) -> bool:
    return bool(_land_attacks(st, me, True))


def _land_attacks(st: SpqrState, me: int, first: bool) -> list[Action]:
    """The land attacks open to `me`, in board order (only the first when `first`). Equivalent to testing
    `attack_keep`, `attack_floor` and `protected` per pair, with the enemy neighbours of each source counted
    once: a source borders an enemy other than the target when it has more enemy neighbours than the target's
    own share."""
    owner, armies, ne = st.owner, st.armies, st.ne
    rows = st.acts.attack
    opts = st.opts
    nie = opts.neutral_is_enemy
    strict = opts.garrison == "garrison_first"
    stop = opts.garrison != "move_in_first"
    # from this many legionaries a source passes both tests below against any target: with 3 dice at most and
    # keeping at most 2, a - keep >= dd and a > floor always hold
    sure = 5 if strict else 4
    provs: list[list[int]] | None = None
    if st.round < opts.first_elimination_round:  # U9: a player's only province is protected
        provs = st.provs
    out: list[Action] = []
    for s in st.provs[me]:
        a = armies[s]
        if a < 2:
            continue
        n_enemy = ne[s]
        if not n_enemy and nie:  # every land neighbour is its own
            continue
        if a >= sure:  # enough to attack any neighbour whatever its garrison and dice
            for t, act in rows[s]:
                ot = owner[t]
                if ot == me or (provs is not None and ot >= 0 and len(provs[ot]) <= 1):
                    continue
                out.append(act)
                if first:
                    return out
            continue
        for t, act in rows[s]:
            ot = owner[t]
            if ot == me:
                continue
            at = armies[t]
            dd = at if at < 3 else 3
            frontier = n_enemy > (1 if (ot >= 0 or (ot == NEUTRAL and nie)) else 0)
            if a - (2 if strict and frontier else 1) < dd or a <= (2 if stop and frontier else 1):
                continue
            if provs is not None and ot >= 0 and len(provs[ot]) <= 1:
                continue
            out.append(act)
            if first:
                return out
    return out


def apply_attack(st: SpqrState, a: A.Attack) -> None:
    pidx = st.board.province_index
    s, t = pidx[a.source], pidx[a.target]
    st.battle = Battle(B_LAND, s, t, st.owner[t])
    st.phase = PH.LAND_BATTLE


# ------------------------------------------------------------------------------ the dice of a battle [R 10]


def dice_range(st: SpqrState) -> tuple[int, int]:
    """(fewest, most) dice of the next roll of the land attack or naval combat in progress [R 10.4],
    [R 10.13]."""
    bt = st.battle
    assert bt is not None
    if bt.kind == B_NAVAL:
        return navy.naval_dice_range(st, bt)
    me = st.order[st.turn]
    src, tgt = bt.source, bt.target
    return defender_dice(st, tgt), min(3, st.armies[src] - attack_keep(st, src, tgt, me))


def legal_battle(st: SpqrState, me: int) -> list[Action]:
    bt = st.battle
    assert bt is not None
    lo, hi = dice_range(st)
    out = st.acts.roll_dice[lo : hi + 1] if lo <= hi else []
    if bt.rolls > 0:
        out.append(A.WITHDRAW)
    return out


def apply_roll_dice(st: SpqrState, a: A.RollDice) -> None:
    st.last_dice = a.dice
    bt = st.battle
    assert bt is not None
    if bt.kind == B_NAVAL:
        st.chance = ROLLS[a.dice][min(3, st.triremes[bt.opponent][bt.source])]
    else:
        st.chance = ROLLS[a.dice][defender_dice(st, bt.target)]


def apply_withdraw(st: SpqrState, a: A.Withdraw) -> Phase:
    return end_battle(st)


def end_battle(st: SpqrState) -> Phase:
    bt = st.battle
    assert bt is not None
    st.battle = None
    return PH.NAVAL_COMBAT if bt.kind == B_NAVAL else PH.LAND_ATTACK


_LOSSES: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {}
"""The land and sea losses of each roll met so far, by its dice."""


def apply_roll(st: SpqrState, a: A.Roll) -> Phase | None:
    """Chance: one roll of the battle in progress."""
    st.chance = None
    bt = st.battle
    assert bt is not None
    bt.rolls += 1
    if bt.kind == B_NAVAL:  # [R 11]
        return end_battle(st) if navy.apply_naval_roll(st, bt, a.attacker, a.defender) else None
    me = st.order[st.turn]
    key = (a.attacker, a.defender)
    losses = _LOSSES.get(key)
    if losses is None:
        losses = _LOSSES[key] = resolve(a.attacker, a.defender)
    al, dl = losses
    t = bt.target
    armies = st.armies
    armies[t] -= dl
    if bt.kind == B_SEA:  # fought to the end [R 12.3]
        bt.alive -= al
        if armies[t] == 0:
            conquer(st, me, t, bt.alive, by_sea=True)
            st.battle = None
            return PH.SEA_ATTACK
        alive = bt.alive
        dd = defender_dice(st, t)
        if alive == 0 or (not st.opts.sea_attack_below_defender and min(3, alive) < dd):
            armies[bt.source] += alive  # U7 off: survivors return
            st.battle = None
            return PH.SEA_ATTACK
        st.chance = ROLLS[min(3, alive)][dd]
        return None
    s = bt.source
    armies[s] -= al
    if armies[t] == 0:
        conquer(st, me, t, 0, by_sea=False)
        if st.terminal is not None:
            return None
        lo, hi = move_in_range(st, me)
        st.phase = PH.MOVE_IN
        if lo == hi:
            return apply_move_in(st, A.MoveIn(lo))
        return None
    lo, hi = dice_range(st)
    if hi < lo or armies[s] <= attack_floor(st, s, t, me):
        return end_battle(st)
    return None


# ------------------------------------------------------------------------ conquest and moving in [R 13.3]


def conquer(st: SpqrState, me: int, t: int, occupants: int, by_sea: bool) -> None:
    loser = st.owner[t]
    set_owner(st, t, me)
    st.armies[t] = occupants
    st.conquered = True
    if by_sea:
        st.sea_conquered[t] = True
    if loser >= 0 and not st.provs[loser]:
        eliminate(st, loser, me)


def eliminate(st: SpqrState, loser: int, by: int) -> None:
    """[R 18]: the eliminator takes every card; the loser's triremes leave the game."""
    st.eliminated[loser] = True
    st.eliminated_by[loser] = by
    for i in range(4):
        st.hands[by][i] += st.hands[loser][i]
        st.hands[loser][i] = 0
    st.triremes[loser] = [0] * st.board.n_seas
    for s in range(st.board.n_seas):
        sea_changed(st, s)
    alive = [p for p in range(st.n) if not st.eliminated[p]]
    if len(alive) == 1:
        finish(st, Termination.ELIMINATION, (alive[0],))


def move_in_range(st: SpqrState, me: int) -> tuple[int, int]:
    bt = st.battle
    assert bt is not None
    s = bt.source
    spare = st.armies[s] - garrison(st, s, me)
    if st.opts.garrison != "move_in_first":
        # house readings: the garrison comes first; the published minimum (the last roll's dice) holds as far
        # as the garrison allows (RULES-NOTES 4), or, with move_in_minimum=one, any number from 1
        hi = max(1, spare)
        lo = 1 if st.opts.move_in_minimum == "one" else max(1, min(st.last_dice, hi))
        return lo, hi
    lo = st.last_dice
    return lo, max(lo, spare)


def legal_move_in(st: SpqrState, me: int) -> list[Action]:
    lo, hi = move_in_range(st, me)
    return st.acts.move_in(lo, hi)


def apply_move_in(st: SpqrState, a: A.MoveIn) -> Phase:
    move_after_battle(st, a.count)
    return PH.LAND_ATTACK
