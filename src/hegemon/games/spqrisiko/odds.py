"""Exact battle odds for S.P.Q.RisiKo! (spqrisiko.md B 4.4–4.8): the distribution of the final result of a
land attack with a stop rule [R 13], a declared sea attack fought to the end [R 12] and a naval combat [R 11],
in exact fractions, and the win-probability tables a UI shows. Pure functions over the one-roll loss
distributions of `combat` (derived there by enumerating the dice).

Every combat is an absorbing Markov chain over (attacker units, defender units): one roll moves it to a state
with fewer units, or (a naval roll with no loss [R 11.6]) ends it. A single battle is computed forwards (the
probability mass of each state, in order of decreasing units); a table backwards (the win probability of
every state, shared by all the cells). Both use the same `_Step` transition function, so they cannot
disagree about the rules.

The web table computes a battle in exact fractions only while its size is within `EXACT_WORK` (exact
arithmetic grows with the size of the armies: a 200 v 200 naval combat takes seconds); a larger battle is
computed in floating point over the same chain (`battle_json`, `exact: false` in its answer), correct to about
1e-12."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from hegemon.core.errors import ConfigError
from hegemon.games.spqrisiko.combat import loss_distribution

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState

Kind = Literal["land", "sea", "naval"]
KINDS: tuple[Kind, ...] = ("land", "sea", "naval")

MAX_UNITS = 200
"""Largest army accepted, to bound the work of one request: in exact arithmetic a 200 v 200 land battle takes
about 0.5 s and a 200×200 win table about 1.5 s."""

EXACT_WORK: Mapping[str, int] = MappingProxyType({"land": 300_000, "sea": 300_000, "naval": 30_000})
"""The web table's odds are exact fractions while attacker × defender × (attacker + defender) is at most this for
the kind of combat (about 53 v 53 legionaries on land or by sea, 24 v 24 triremes at sea: at most a few hundredths
of a second of pure Python); above it they are computed in floating point (`battle_json`)."""

MAX_DICE = 3
"""Up to 3 dice a side [R 10.4]."""

State = tuple[int, int]
# The rolls possible from a state, as (probability, next state), or None when the combat is over there.
# A next state equal to the current one means "this roll ends the combat" (a naval roll without losses).
# Probabilities are exact fractions, or floats for the floating-point computation of a large battle.
_Step = Callable[[int, int], tuple[tuple[Any, State], ...] | None]

_ZERO = Fraction(0)
_ONE = Fraction(1)

_COUNTS = {
    "land": (
        "attacker = legionaries on the attacking province, of which {keep} never roll [R 14.1] "
        "(the attacker rolls min(3, attacker - {keep}) dice and stops at {stop_at} or fewer); "
        "defender = legionaries on the attacked province, all of which defend [R 10.5]; "
        "attacker_left is counted on the attacking province before any move-in"
    ),
    "sea": (
        "attacker = the declared force of legionaries, all of which roll (min(3, survivors) dice) [R 12.3]; "
        "the legionaries that stay on the source province are not counted; "
        "defender = legionaries on the attacked province, all of which defend [R 10.5]; "
        "attacker_left = survivors of the declared force"
    ),
    "naval": (
        "attacker and defender = the two players' triremes in the sea area, all of which can roll "
        "(min(3, triremes) dice) [R 11]; a tie removes nobody [R 11.5]"
    ),
}


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """The exact distribution of the final result of one combat, with the inputs that produced it.

    `distribution` maps `(attacker_left, defender_left)` to its probability; `attacker_left` counts the same
    units as `attacker` (see `counts`). `p_win` is the probability that the defender is wiped out (a conquest
    on land and by sea). `attack_possible` is False when not a single roll takes place (too few attackers
    [R 10.13], or a stop rule already met)."""

    kind: Kind
    attacker: int
    defender: int
    distribution: Mapping[State, Fraction] = field(hash=False)
    p_win: Fraction
    expected_attacker_losses: Fraction
    expected_defender_losses: Fraction
    attack_possible: bool
    stop_at: int | None = None
    keep: int | None = None
    continue_below_defender: bool | None = None
    exact: bool = True
    """False: the probabilities are floats (computed in floating point, see `battle_json`), not fractions."""

    @property
    def counts(self) -> str:
        """Which armies the numbers count, in words."""
        return describe_counts(self.kind, keep=self.keep or 1, stop_at=self.stop_at or 1)

    def outcomes(self) -> list[tuple[int, int, Fraction]]:
        """(attacker_left, defender_left, probability), best for the attacker first."""
        return [
            (a, d, p) for (a, d), p in sorted(self.distribution.items(), key=lambda kv: (kv[0][1], -kv[0][0]))
        ]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict with every probability both as a decimal and as an exact fraction "a/b": the totals
        as {"decimal": float, "fraction": "a/b"}, each outcome row with flat "probability" and "fraction"."""
        inputs: dict[str, Any] = {"attacker": self.attacker, "defender": self.defender}
        if self.kind == "land":
            inputs |= {"stop_at": self.stop_at, "keep": self.keep}
        elif self.kind == "sea":
            inputs |= {"continue_below_defender": self.continue_below_defender}
        return {
            "kind": self.kind,
            "counts": self.counts,
            "inputs": inputs,
            "exact": self.exact,
            "attack_possible": self.attack_possible,
            "p_win": exact(self.p_win),
            "expected_attacker_losses": exact(self.expected_attacker_losses),
            "expected_defender_losses": exact(self.expected_defender_losses),
            "outcomes": [
                {
                    "attacker_left": a,
                    "defender_left": d,
                    "win": d == 0,
                    "probability": float(p),
                    "fraction": _ratio(p) if isinstance(p, Fraction) else None,
                }
                for a, d, p in self.outcomes()
            ],
        }


def describe_counts(kind: Kind, *, keep: int = 1, stop_at: int = 1) -> str:
    """Which armies the numbers of `kind` count, in words (for `--help` and for every result)."""
    if kind not in KINDS:
        raise ConfigError("kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    return _COUNTS[kind].format(keep=keep, stop_at=max(stop_at, keep))


def exact(value: Fraction | float) -> dict[str, float | str | None]:
    """A fraction as JSON: {"decimal": 0.4166…, "fraction": "5/12"} (always "a/b", even "1/1"); a float (a
    floating-point result) as {"decimal": 0.4166…, "fraction": None}."""
    return {"decimal": float(value), "fraction": _ratio(value) if isinstance(value, Fraction) else None}


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


# ---------------------------------------------------------------------------------------------- validation


def _units(name: str, value: object, minimum: int = 1, maximum: int = MAX_UNITS) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(name, f"expected a whole number, got {value!r}")
    if not minimum <= value <= maximum:
        raise ConfigError(name, f"must be between {minimum} and {maximum}, got {value}")
    return value


def _land_rule(stop_at: object, keep: object) -> tuple[int, int]:
    """Validated (stop_at, keep). A stop_at below keep behaves exactly as keep (a province with `keep` or fewer
    legionaries cannot roll), so it is raised to keep."""
    keep = _units("keep", keep)
    stop_at = _units("stop_at", stop_at)
    return max(stop_at, keep), keep


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(name, f"expected true or false, got {value!r}")
    return value


# ------------------------------------------------------------------------------------------- transitions


@lru_cache(maxsize=16)
def _float_losses(n_att: int, n_def: int, naval: bool = False) -> tuple[tuple[int, int, float], ...]:
    """`loss_distribution` in floating point."""
    return tuple((al, dl, float(p)) for al, dl, p in loss_distribution(n_att, n_def, naval))


@lru_cache(maxsize=64)
def _step(kind: Kind, keep: int, stop_at: int, continue_below_defender: bool, exact: bool = True) -> _Step:
    """The transition function of one kind of combat under its rule parameters (probabilities as fractions, or
    as floats when not `exact`)."""
    losses = loss_distribution if exact else _float_losses

    def land(a: int, d: int) -> tuple[tuple[Any, State], ...] | None:
        # [R 13.3] conquest at 0; stop rule [R 10.12]; [R 14.1] `keep` never roll; [R 10.13] dice ≥ defender's.
        if d == 0 or a <= stop_at:
            return None
        n_att, n_def = min(MAX_DICE, a - keep), min(MAX_DICE, d)
        if n_att < n_def:
            return None
        return tuple((p, (a - al, d - dl)) for al, dl, p in losses(n_att, n_def))

    def sea(s: int, d: int) -> tuple[tuple[Any, State], ...] | None:
        # [R 12.3] ad oltranza: until conquest or the declared force is wiped out; U7 off stops below the
        # defender's dice (the survivors return). [R 10.13] at declaration is checked by the callers.
        if d == 0 or s == 0:
            return None
        n_att, n_def = min(MAX_DICE, s), min(MAX_DICE, d)
        if n_att < n_def and not continue_below_defender:
            return None
        return tuple((p, (s - al, d - dl)) for al, dl, p in losses(n_att, n_def))

    def naval(a: int, d: int) -> tuple[tuple[Any, State], ...] | None:
        # [R 11.5] ties remove nobody, [R 11.6] a roll without losses ends the combat (next == state),
        # [R 11.7] no garrison at sea, [R 10.13] the attacker never rolls fewer dice than the defender.
        if d == 0 or a == 0:
            return None
        n_att, n_def = min(MAX_DICE, a), min(MAX_DICE, d)
        if n_att < n_def:
            return None
        return tuple((p, (a - al, d - dl)) for al, dl, p in losses(n_att, n_def, True))

    return {"land": land, "sea": sea, "naval": naval}[kind]


def _sea_declaration_ok(declared: int, defender: int) -> bool:
    """[R 10.13] at declaration: the declared force must be able to roll as many dice as the defender."""
    return min(MAX_DICE, declared) >= min(MAX_DICE, defender)


def _final_distribution(start: State, step: _Step, one: Any = _ONE) -> dict[State, Any]:
    """Forward pass: push the probability mass through the chain, states in order of decreasing units (`one`:
    1 as a fraction, or as a float for a floating-point step)."""
    zero = one * 0
    a0, d0 = start
    buckets: list[dict[State, Any]] = [{} for _ in range(a0 + d0 + 1)]
    buckets[a0 + d0][start] = one
    final: dict[State, Any] = {}
    for total in range(a0 + d0, -1, -1):
        for state, p in buckets[total].items():
            moves = step(*state)
            if moves is None:
                final[state] = final.get(state, zero) + p
                continue
            for q, nxt in moves:
                if nxt == state:
                    final[state] = final.get(state, zero) + p * q
                else:
                    bucket = buckets[nxt[0] + nxt[1]]
                    bucket[nxt] = bucket.get(nxt, zero) + p * q
    return final


@lru_cache(maxsize=64)
def _win_grid(
    kind: Kind, max_a: int, max_d: int, keep: int, stop_at: int, cbd: bool
) -> tuple[tuple[Fraction, ...], ...]:
    """Backward pass: the win probability of every state (a, d) with a ≤ max_a, d ≤ max_d, in one sweep;
    each roll leads to a state with no more units on either side, so row-major order is a valid order."""
    step = _step(kind, keep, stop_at, cbd)
    w: list[list[Fraction]] = []
    for a in range(max_a + 1):
        row: list[Fraction] = []
        for d in range(max_d + 1):
            moves = step(a, d)
            if moves is None:
                row.append(_ONE if d == 0 else _ZERO)
                continue
            total = _ZERO
            for q, (na, nd) in moves:
                if (na, nd) != (a, d):
                    value = row[nd] if na == a else w[na][nd]
                    if value:
                        total += q * value
            row.append(total)
        w.append(row)
    return tuple(tuple(r) for r in w)


def _odds(
    kind: Kind, attacker: int, defender: int, declared_ok: bool, step: _Step, **inputs: Any
) -> BattleOdds:
    start = (attacker, defender)
    one: Any = _ONE if inputs.get("exact", True) else 1.0
    zero = one * 0
    possible = declared_ok and step(attacker, defender) is not None
    dist = _final_distribution(start, step, one) if possible else {start: one}
    p_win = sum((p for (_, d), p in dist.items() if d == 0), zero)
    lost_a = sum(((attacker - a) * p for (a, _), p in dist.items()), zero)
    lost_d = sum(((defender - d) * p for (_, d), p in dist.items()), zero)
    return BattleOdds(
        kind=kind,
        attacker=attacker,
        defender=defender,
        distribution=MappingProxyType(dict(sorted(dist.items()))),
        p_win=p_win,
        expected_attacker_losses=lost_a,
        expected_defender_losses=lost_d,
        attack_possible=possible,
        **inputs,
    )


# ------------------------------------------------------------------------------------------------ public


GARRISONS = ("move_in_first", "garrison_stop", "garrison_first")
"""The values of the `garrison` option (see RULES-NOTES, interpretations 3 and 4)."""


def land_rule(garrison: str, source_borders_other_enemy: bool) -> tuple[int, int]:
    """(keep, stop_at) of a land attack under the `garrison` option: `keep` legionaries of the attacking
    province never roll, and the attack stops once the province is down to `stop_at`. Official rules and any
    source that borders no enemy province but the target: (1, 1) [R 14.1]. On a frontier (U6: neutrals count
    as enemies, land borders only — the caller decides that): `garrison_stop` (house-1.2) (1, 2): the dice
    follow the official limits, but the attack needs 3 legionaries and stops at 2, so that 2 stay after the
    move-in [R 14.2]; `garrison_first` (house-strict) (2, 2): the dice are capped at the source minus 2."""
    if garrison not in GARRISONS:
        raise ConfigError("garrison", f"expected one of {', '.join(GARRISONS)}, got {garrison!r}")
    if not source_borders_other_enemy or garrison == "move_in_first":
        return 1, 1
    return (1, 2) if garrison == "garrison_stop" else (2, 2)


def land_keep(garrison: str, source_borders_other_enemy: bool) -> int:
    """How many legionaries of the attacking province can never roll (the `keep` of `land_rule`)."""
    return land_rule(garrison, source_borders_other_enemy)[0]


def land_position(state: SpqrState, source: int, target: int, stop_at: int = 1) -> BattleOdds:
    """Exact odds of the land attack from province `source` on `target` (board indices) in `state`, for the
    player on turn, under the position's garrison rule; `stop_at` below the rule's floor is raised to it."""
    from hegemon.games.spqrisiko.rules.common import borders_enemy

    me = state.order[state.turn] if state.order else 0
    frontier = borders_enemy(state, source, me, ignore=target)
    keep, floor = land_rule(state.opts.garrison, frontier)
    return land_battle(state.armies[source], state.armies[target], stop_at=max(stop_at, floor), keep=keep)


def land_battle(
    attacker: int, defender: int, *, stop_at: int = 1, keep: int = 1, exact: bool = True
) -> BattleOdds:
    """Exact odds of a land attack [R 13], spqrisiko.md B 4.4, 4.7, 4.8.

    `attacker` counts the legionaries on the attacking province (not the dice); `keep` of them never roll
    (1 [R 14.1]; 2 under the house-strict garrison rule, see `land_rule`). Each roll: the attacker rolls
    min(3, attacker - keep) dice, the defender min(3, defender) [R 10.5]; ties go to the defender [R 10.11].
    The attacker never rolls fewer dice than the defender [R 10.13], so the battle ends when
    attacker - keep < min(3, defender); it also ends, by choice [R 10.12], as soon as the attacker has
    `stop_at` or fewer legionaries on the province (a roll of several dice may overshoot below `stop_at`).
    A `stop_at` below `keep` is the same as `keep`. `exact=False`: in floating point (see `battle_json`)."""
    attacker = _units("attacker", attacker)
    defender = _units("defender", defender)
    stop_at, keep = _land_rule(stop_at, keep)
    return _land_battle(attacker, defender, stop_at, keep, _flag("exact", exact))


@lru_cache(maxsize=1024)
def _land_battle(attacker: int, defender: int, stop_at: int, keep: int, exact: bool = True) -> BattleOdds:
    step = _step("land", keep, stop_at, True, exact)
    return _odds("land", attacker, defender, True, step, stop_at=stop_at, keep=keep, exact=exact)


def sea_attack(
    declared: int, defender: int, *, continue_below_defender: bool = True, exact: bool = True
) -> BattleOdds:
    """Exact odds of a declared sea attack [R 12], spqrisiko.md B 4.6.

    The whole declared force rolls (min(3, survivors) dice) and the attack is fought to the end [R 12.3]:
    until conquest or until the declared force is wiped out; it cannot be stopped. The declaration must let
    the force roll as many dice as the defender [R 10.13] (otherwise no roll happens: `attack_possible` is
    False). With `continue_below_defender=False` (option U7 off) the attack ends when the survivors would roll
    fewer dice than the defender, and the survivors return. `exact=False`: in floating point."""
    declared = _units("declared", declared)
    defender = _units("defender", defender)
    cbd = _flag("continue_below_defender", continue_below_defender)
    return _sea_attack(declared, defender, cbd, _flag("exact", exact))


@lru_cache(maxsize=1024)
def _sea_attack(declared: int, defender: int, cbd: bool, exact: bool = True) -> BattleOdds:
    ok = _sea_declaration_ok(declared, defender)
    step = _step("sea", 1, 0, cbd, exact)
    return _odds("sea", declared, defender, ok, step, continue_below_defender=cbd, exact=exact)


def naval_combat(attacker: int, defender: int, *, exact: bool = True) -> BattleOdds:
    """Exact odds of a naval combat between two players' triremes [R 11], spqrisiko.md B 4.5.

    The attacker always rolls min(3, triremes) dice, the defender min(3, triremes); a tied pair removes nobody
    [R 11.5]. The combat ends at once after a roll without losses [R 11.6], when a side has no trireme left
    [R 11.7], or when the attacker would roll fewer dice than the defender [R 10.13]. `p_win` is the
    probability that the defender loses every trireme. `exact=False`: in floating point."""
    attacker = _units("attacker", attacker)
    defender = _units("defender", defender)
    return _naval_combat(attacker, defender, _flag("exact", exact))


@lru_cache(maxsize=1024)
def _naval_combat(attacker: int, defender: int, exact: bool = True) -> BattleOdds:
    return _odds("naval", attacker, defender, True, _step("naval", 1, 0, True, exact), exact=exact)


def exact_work(attacker: int, defender: int) -> int:
    """The size measure that `EXACT_WORK` bounds: attacker × defender × (attacker + defender) (the states of the
    chain times the length of its longest path, which the size of the exact fractions follows)."""
    return attacker * defender * (attacker + defender)


def battle_json(
    kind: Kind,
    attacker: int,
    defender: int,
    *,
    stop_at: int = 1,
    keep: int = 1,
    continue_below_defender: bool = True,
) -> dict[str, Any]:
    """The web table's odds of one combat, as JSON (`BattleOdds.to_json`): in exact fractions while
    `exact_work(attacker, defender)` is within `EXACT_WORK[kind]`, else in floating point over the same chain
    (`"exact": false`, every `"fraction"` None), so that one request costs at most about a tenth of a second
    whatever the armies (up to MAX_UNITS a side)."""
    if kind not in KINDS:
        raise ConfigError("kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    ex = exact_work(_units("attacker", attacker), _units("defender", defender)) <= EXACT_WORK[kind]
    if kind == "land":
        return land_battle(attacker, defender, stop_at=stop_at, keep=keep, exact=ex).to_json()
    if kind == "sea":
        return sea_attack(
            attacker, defender, continue_below_defender=continue_below_defender, exact=ex
        ).to_json()
    return naval_combat(attacker, defender, exact=ex).to_json()


def win_table(
    max_attacker: int = 30,
    max_defender: int = 30,
    *,
    kind: Kind = "land",
    stop_at: int | None = None,
    keep: int | None = None,
    continue_below_defender: bool | None = None,
) -> list[list[Fraction]]:
    """The exact win probability for every attacker 1..max_attacker (rows) and defender 1..max_defender
    (columns): `table[a - 1][d - 1]` equals `p_win` of `land_battle(a, d, ...)`, `sea_attack(a, d, ...)` or
    `naval_combat(a, d)` for `kind` "land", "sea" or "naval". `stop_at`/`keep` (land only, defaults 1) and
    `continue_below_defender` (sea only, default True) are as there. One backward sweep shares every
    sub-battle between the cells: a 30×30 table takes a few hundredths of a second."""
    if kind not in KINDS:
        raise ConfigError("kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    max_a = _units("max_attacker", max_attacker)
    max_d = _units("max_defender", max_defender)
    if kind != "land":
        for name, value in (("stop_at", stop_at), ("keep", keep)):
            if value is not None:
                raise ConfigError(name, f"applies to land battles only, not to {kind} combat")
    if kind != "sea" and continue_below_defender is not None:
        raise ConfigError("continue_below_defender", f"applies to sea attacks only, not to {kind} combat")
    if kind == "land":
        stop, kp = _land_rule(1 if stop_at is None else stop_at, 1 if keep is None else keep)
        grid = _win_grid("land", max_a, max_d, kp, stop, True)
    elif kind == "sea":
        cbd = _flag(
            "continue_below_defender", True if continue_below_defender is None else continue_below_defender
        )
        grid = _win_grid("sea", max_a, max_d, 1, 0, cbd)
    else:
        grid = _win_grid("naval", max_a, max_d, 1, 0, True)
    if kind == "sea":
        return [
            [grid[a][d] if _sea_declaration_ok(a, d) else _ZERO for d in range(1, max_d + 1)]
            for a in range(1, max_a + 1)
        ]
    return [list(grid[a][1:]) for a in range(1, max_a + 1)]


def position_odds_job(state: SpqrState, query: Mapping[str, str]) -> partial[dict[str, Any]]:
    """The computation of the odds of the attack that `query` describes in `state`, for the player on turn, read
    from the position (cheap) and run later, elsewhere (a picklable call of `battle_json` with plain numbers):
    `kind` land (`source`, `target`, optional `stop_at`), sea (`target`, `declared`) or naval (`sea`,
    `opponent`). Names are the board's ids; a bad one raises KeyError or ValueError, a bad number ConfigError."""
    from hegemon.games.spqrisiko.rules.common import borders_enemy

    b = state.board
    me = state.order[state.turn] if state.order else 0
    kind = query.get("kind", "land")
    if kind == "land":
        source, target = b.province_index[query["source"]], b.province_index[query["target"]]
        frontier = borders_enemy(state, source, me, ignore=target)
        keep, floor = land_rule(state.opts.garrison, frontier)
        stop_at, keep = _land_rule(max(int(query.get("stop_at", 1)), floor), keep)
        a, d = _units("attacker", state.armies[source]), _units("defender", state.armies[target])
        return partial(battle_json, "land", a, d, stop_at=stop_at, keep=keep)
    if kind == "sea":
        if "declared" not in query:
            raise ValueError("missing declared")
        declared = _units("declared", int(query["declared"]))
        d = _units("defender", state.armies[b.province_index[query["target"]]])
        cbd = bool(state.opts.sea_attack_below_defender)
        return partial(battle_json, "sea", declared, d, continue_below_defender=cbd)
    if kind == "naval":
        if "opponent" not in query:
            raise ValueError("missing opponent")
        sea = b.sea_index[query["sea"]]
        a, d = state.triremes[me][sea], state.triremes[int(query["opponent"])][sea]
        return partial(battle_json, "naval", _units("attacker", a), _units("defender", d))
    raise ValueError(f"unknown kind {kind!r}")
