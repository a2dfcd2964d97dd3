"""S.P.Q.RisiKo! actions. Compound rulebook moves are sequences of atomic choices (select an attack, choose
the dice, move in N; select a sea attack, declare N; select a strategic move, move N) so that the action space
is finite and enumerable. Province and sea ids are the board's string ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hegemon.core.actions import Action, ActionCodec


@dataclass(frozen=True, slots=True)
class Order(Action):
    """Chance: the order of play, drawn at random [R 3.2] (U18: placement order = turn order)."""

    kind: ClassVar[str] = "order"
    seats: tuple[int, ...]

    def __str__(self) -> str:
        return "order of play: " + ", ".join(f"P{s + 1}" for s in self.seats)


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Chance (random_deal): `province` goes to player `owner` (2 legionaries) or to the neutrals (owner -1)."""

    kind: ClassVar[str] = "deal"
    province: str
    owner: int

    def __str__(self) -> str:
        who = "neutral" if self.owner < 0 else f"P{self.owner + 1}"
        return f"deal {self.province} to {who}"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Set-up: put 2 own legionaries on a free province [R 3.7]."""

    kind: ClassVar[str] = "claim"
    province: str

    def __str__(self) -> str:
        return f"claim {self.province}"


@dataclass(frozen=True, slots=True)
class ClaimNeutral(Action):
    """Set-up: put a group of 3 neutral legionaries on a free province [R 3.7]."""

    kind: ClassVar[str] = "claim_neutral"
    province: str

    def __str__(self) -> str:
        return f"neutral group on {self.province}"


@dataclass(frozen=True, slots=True)
class TradeSet(Action):
    """Reinforcements: trade three cards (same or all different symbols) [R 8.4]-[R 8.7]."""

    kind: ClassVar[str] = "trade_set"
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "trade set " + "+".join(self.cards)


@dataclass(frozen=True, slots=True)
class PlaceTrireme(Action):
    """Card bonus: a trireme in a sea area next to an own province [R 8.7.2]."""

    kind: ClassVar[str] = "place_trireme"
    sea: str

    def __str__(self) -> str:
        return f"bonus trireme in {self.sea}"


@dataclass(frozen=True, slots=True)
class PlacePowerCentre(Action):
    """Card bonus: a power centre in an own province, never beside another [R 8.7.3], [R 16.4]."""

    kind: ClassVar[str] = "place_power_centre"
    province: str

    def __str__(self) -> str:
        return f"build power centre in {self.province}"


@dataclass(frozen=True, slots=True)
class Forgo(Action):
    """Card bonus: give up the pending trireme or power centre [R 8.8]."""

    kind: ClassVar[str] = "forgo"

    def __str__(self) -> str:
        return "forgo the bonus"


@dataclass(frozen=True, slots=True)
class Reinforce(Action):
    """Land reinforcements: place one legionary of the pool in an own province [R 6.4]."""

    kind: ClassVar[str] = "reinforce"
    province: str

    def __str__(self) -> str:
        return f"reinforce {self.province}"


@dataclass(frozen=True, slots=True)
class Disband(Action):
    """A trireme in `sea` becomes 2 legionaries in an own adjacent `province` [R 6.6]."""

    kind: ClassVar[str] = "disband"
    sea: str
    province: str

    def __str__(self) -> str:
        return f"trireme in {self.sea} -> 2 legionaries in {self.province}"


@dataclass(frozen=True, slots=True)
class Build(Action):
    """3 legionaries of `province` become a trireme in the adjacent `sea` [R 7.1]-[R 7.3]."""

    kind: ClassVar[str] = "build"
    province: str
    sea: str

    def __str__(self) -> str:
        return f"3 legionaries of {self.province} -> trireme in {self.sea}"


@dataclass(frozen=True, slots=True)
class NavalMove(Action):
    """Move `count` own triremes one step, `source` to the adjacent `dest` sea area [R 9]."""

    kind: ClassVar[str] = "naval_move"
    source: str
    dest: str
    count: int

    def __str__(self) -> str:
        return f"move {self.count} trireme(s) {self.source} -> {self.dest}"


@dataclass(frozen=True, slots=True)
class NavalAttack(Action):
    """Declare a naval combat in `sea` against player `opponent` [R 11.3]."""

    kind: ClassVar[str] = "naval_attack"
    sea: str
    opponent: int

    def __str__(self) -> str:
        return f"naval combat in {self.sea} against P{self.opponent + 1}"


@dataclass(frozen=True, slots=True)
class SeaAttack(Action):
    """Select a sea attack from `source` on `target` across the `sea` bridge [R 12.1], [R 12.2]."""

    kind: ClassVar[str] = "sea_attack"
    source: str
    target: str
    sea: str

    def __str__(self) -> str:
        return f"sea attack {self.source} -> {self.target} across {self.sea}"


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Declare how many legionaries take part in the selected sea attack [R 12.3]."""

    kind: ClassVar[str] = "declare"
    count: int

    def __str__(self) -> str:
        return f"declare {self.count} legionaries"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Select a land attack from `source` on the land-adjacent `target` [R 13.1]."""

    kind: ClassVar[str] = "attack"
    source: str
    target: str

    def __str__(self) -> str:
        return f"attack {self.source} -> {self.target}"


@dataclass(frozen=True, slots=True)
class RollDice(Action):
    """Roll `dice` attacking dice in the current land attack or naval combat [R 10.4]."""

    kind: ClassVar[str] = "roll_dice"
    dice: int

    def __str__(self) -> str:
        return f"roll {self.dice} dice"


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Stop the current land attack or naval combat [R 10.12]."""

    kind: ClassVar[str] = "withdraw"

    def __str__(self) -> str:
        return "stop attacking"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Chance: the dice of one roll, each side sorted high to low."""

    kind: ClassVar[str] = "roll"
    attacker: tuple[int, ...]
    defender: tuple[int, ...]

    def __str__(self) -> str:
        a = " ".join(map(str, self.attacker))
        d = " ".join(map(str, self.defender))
        return f"dice: attacker {a} / defender {d}"


@dataclass(frozen=True, slots=True)
class MoveIn(Action):
    """After a conquest, move `count` legionaries from the attacking province [R 13.3], [R 13.4]."""

    kind: ClassVar[str] = "move_in"
    count: int

    def __str__(self) -> str:
        return f"move in {self.count}"


@dataclass(frozen=True, slots=True)
class Fortify(Action):
    """Select the strategic move: from `source` to own `dest`, by land or across one controlled sea [R 15]."""

    kind: ClassVar[str] = "fortify"
    source: str
    dest: str

    def __str__(self) -> str:
        return f"strategic move {self.source} -> {self.dest}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """How many legionaries the selected strategic move carries [R 15.1]."""

    kind: ClassVar[str] = "move"
    count: int

    def __str__(self) -> str:
        return f"move {self.count}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End the current optional phase (cards, conversions, naval move, combats, attacks, strategic move)."""

    kind: ClassVar[str] = "done"

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Chance: `player` draws a card [R 17]. Only that player sees the symbol."""

    kind: ClassVar[str] = "draw"
    card: str
    player: int

    def visible_to(self, viewer: int | None) -> Action:
        return self if viewer == self.player else Draw("?", self.player)

    def __str__(self) -> str:
        return f"P{self.player + 1} draws a card" + ("" if self.card == "?" else f" ({self.card})")


ACTION_TYPES: tuple[type[Action], ...] = (
    Order, Deal, Claim, ClaimNeutral, TradeSet, PlaceTrireme, PlacePowerCentre, Forgo, Reinforce, Disband,
    Build, NavalMove, NavalAttack, SeaAttack, Declare, Attack, RollDice, Withdraw, Roll, MoveIn, Fortify,
    Move, Done, Draw,
)  # fmt: skip

CODEC = ActionCodec(ACTION_TYPES)
DONE = Done()
WITHDRAW = Withdraw()
FORGO = Forgo()
