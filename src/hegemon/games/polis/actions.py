"""Polis actions: frozen slotted dataclasses (ints/strs/bools only). Compound rulebook actions are sequences
of atomic choices — a move is `MoveHoplites(to)` then `MoveFrom(source, count)`… then `EndMove()`; a
diceless_sacrifice siege is `StartSiege(q)` then `ForceSiege()`… then `StopForcing()` — so the action space
is finite and enumerable. Chance outcomes (dice, draws) are actions too, recorded in the game's action list.
Ids are the board's string ids (polis, territory, market, project, event, card kind "formation:prestige")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hegemon.core.actions import Action, ActionCodec

SIDE_NAMES = ("Athens", "Sparta")


def _pay(count: int, silver: int, main: str) -> str:
    parts = []
    if count - silver:
        parts.append(f"{count - silver} {main}")
    if silver:
        parts.append(f"{silver} silver")
    return " + ".join(parts)


# --------------------------------------------------------------------------- turn
@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass instead of an action (§4.3-§4.4): the side takes no more turns this round."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PayExtra(Action):
    """After the opponent has passed, every action costs one extra resource of the side's choice (§4.4)."""

    kind: ClassVar[str] = "pay_extra"
    resource: str

    def __str__(self) -> str:
        return f"pay 1 extra {self.resource} (opponent has passed)"


# --------------------------------------------------------------------------- development
@dataclass(frozen=True, slots=True)
class CreateHoplites(Action):
    """Action 1 (§5.1): `count` cubes of `polis` become hoplites in its territory; `silver` of the cost in silver."""

    kind: ClassVar[str] = "create_hoplites"
    polis: str
    count: int
    silver: int

    def __str__(self) -> str:
        return (
            f"create {self.count} hoplite(s) at {self.polis} (pay {_pay(self.count, self.silver, 'metal')})"
        )


@dataclass(frozen=True, slots=True)
class CreateGalleys(Action):
    """Action 2 (§5.2): `count` galleys into the polis's galley sea."""

    kind: ClassVar[str] = "create_galleys"
    polis: str
    count: int
    silver: int

    def __str__(self) -> str:
        return f"create {self.count} galley(s) at {self.polis} (pay {_pay(self.count, self.silver, 'wood')})"


@dataclass(frozen=True, slots=True)
class CreateMerchants(Action):
    """Action 3 (§5.3): `count` merchants from a commercial polis into the Trade Port."""

    kind: ClassVar[str] = "create_merchants"
    polis: str
    count: int
    silver: int

    def __str__(self) -> str:
        return (
            f"create {self.count} merchant(s) at {self.polis} (pay {_pay(self.count, self.silver, 'wood')})"
        )


@dataclass(frozen=True, slots=True)
class StartProject(Action):
    """Action 4 (§5.4): build an offered project on a free slot of its symbol of an own polis."""

    kind: ClassVar[str] = "start_project"
    project: str
    polis: str

    def __str__(self) -> str:
        return f"start project {self.project} at {self.polis}"


# --------------------------------------------------------------------------- military
@dataclass(frozen=True, slots=True)
class MoveHoplites(Action):
    """Action 5 (§5.5), first step: the destination of every hoplite moved."""

    kind: ClassVar[str] = "move_hoplites"
    to: str

    def __str__(self) -> str:
        return f"move hoplites to {self.to}"


@dataclass(frozen=True, slots=True)
class MoveGalleys(Action):
    """Action 6 (§5.6), first step: the destination sea of every galley moved."""

    kind: ClassVar[str] = "move_galleys"
    to: str

    def __str__(self) -> str:
        return f"move galleys to {self.to}"


@dataclass(frozen=True, slots=True)
class MoveFrom(Action):
    """A step of a move: `count` units from `source` (sources are chosen in board order)."""

    kind: ClassVar[str] = "move_from"
    source: str
    count: int

    def __str__(self) -> str:
        return f"  {self.count} from {self.source}"


@dataclass(frozen=True, slots=True)
class EndMove(Action):
    """Close a move after at least one unit has been chosen."""

    kind: ClassVar[str] = "end_move"

    def __str__(self) -> str:
        return "  end of move"


@dataclass(frozen=True, slots=True)
class Besiege(Action):
    """Action 7 under the classic and sacrifice rules (§7.1): pay 1 PP and roll the d4 against `polis`."""

    kind: ClassVar[str] = "besiege"
    polis: str

    def __str__(self) -> str:
        return f"besiege {self.polis}"


@dataclass(frozen=True, slots=True)
class SiegeRoll(Action):
    """Chance: the siege d4."""

    kind: ClassVar[str] = "siege_roll"
    roll: int

    def __str__(self) -> str:
        return f"  siege die: {self.roll}"


@dataclass(frozen=True, slots=True)
class StartSiege(Action):
    """Diceless rules (seeds-en.md §1.2-1.3): place the first siege disc by `polis`."""

    kind: ClassVar[str] = "start_siege"
    polis: str

    def __str__(self) -> str:
        return f"start siege of {self.polis}"


@dataclass(frozen=True, slots=True)
class ContinueSiege(Action):
    """Diceless rules: place another siege disc on the stack by `polis`."""

    kind: ClassVar[str] = "continue_siege"
    polis: str

    def __str__(self) -> str:
        return f"continue siege of {self.polis}"


@dataclass(frozen=True, slots=True)
class ForceSiege(Action):
    """Force: sacrifice (seeds-en.md §1.1) after a failed roll, or one extra disc in diceless_sacrifice (§1.3)."""

    kind: ClassVar[str] = "force_siege"

    def __str__(self) -> str:
        return "  force the siege"


@dataclass(frozen=True, slots=True)
class StopForcing(Action):
    """Decline (further) forcing."""

    kind: ClassVar[str] = "stop_forcing"

    def __str__(self) -> str:
        return "  do not force"


@dataclass(frozen=True, slots=True)
class Garrison(Action):
    """Diceless rules: after a won siege of a polis below its base population, put one hoplite in as a cube."""

    kind: ClassVar[str] = "garrison"
    yes: bool

    def __str__(self) -> str:
        return "  garrison: one hoplite joins the polis" if self.yes else "  no garrison"


@dataclass(frozen=True, slots=True)
class Collect(Action):
    """Action 8 (§5.8): collect the tribute box of `territory`."""

    kind: ClassVar[str] = "collect"
    territory: str

    def __str__(self) -> str:
        return f"collect tribute in {self.territory}"


# --------------------------------------------------------------------------- political
@dataclass(frozen=True, slots=True)
class Trade(Action):
    """Action 9 (§5.9): a merchant to `market`'s leftmost free shipload; goods exchange or purchase."""

    kind: ClassVar[str] = "trade"
    market: str
    purchase: bool

    def __str__(self) -> str:
        return f"trade with {self.market} ({'purchase' if self.purchase else 'goods exchange'})"


@dataclass(frozen=True, slots=True)
class MarketRoll(Action):
    """Chance: the market-value die (exchange: one d4 right; purchase: the higher of two d4 left)."""

    kind: ClassVar[str] = "market_roll"
    roll: int

    def __str__(self) -> str:
        return f"  market die: {self.roll}"


@dataclass(frozen=True, slots=True)
class MoveProxenos(Action):
    """Action 10 (§5.10): the proxenos to `polis`, bribing opponent units on the cheapest way."""

    kind: ClassVar[str] = "move_proxenos"
    polis: str

    def __str__(self) -> str:
        return f"move proxenos to {self.polis}"


@dataclass(frozen=True, slots=True)
class RedeemProxenos(Action):
    """Action 11 (§5.11): pay 2 silver to the opponent, proxenos back on the capital."""

    kind: ClassVar[str] = "redeem_proxenos"

    def __str__(self) -> str:
        return "redeem proxenos"


@dataclass(frozen=True, slots=True)
class CivilWar(Action):
    """Action 12 (§5.12): the proxenos's polis joins the league for silver."""

    kind: ClassVar[str] = "civil_war"
    polis: str

    def __str__(self) -> str:
        return f"instigate civil war in {self.polis}"


# --------------------------------------------------------------------------- battle
@dataclass(frozen=True, slots=True)
class ChooseBattle(Action):
    """Several territories hold 8+ units: the side whose turn ended picks the next battle (§6.1)."""

    kind: ClassVar[str] = "choose_battle"
    territory: str

    def __str__(self) -> str:
        return f"battle in {self.territory} next"


@dataclass(frozen=True, slots=True)
class DrawCard(Action):
    """Chance: `side` (0 Athens, 1 Sparta) draws a combat card; only the drawer sees which (§6.7)."""

    kind: ClassVar[str] = "draw_card"
    side: int
    card: str

    def visible_to(self, viewer: int | None) -> Action:
        return self if viewer == self.side else DrawCard(self.side, "?")

    def __str__(self) -> str:
        return f"  {SIDE_NAMES[self.side]} draws {self.card}"


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Retreat all own units to `territory`, paying 1 PP to the opponent (§6.5)."""

    kind: ClassVar[str] = "retreat"
    territory: str

    def __str__(self) -> str:
        return f"  retreat to {self.territory}"


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """Do not retreat now."""

    kind: ClassVar[str] = "stand"

    def __str__(self) -> str:
        return "  stand"


@dataclass(frozen=True, slots=True)
class PlayCards(Action):
    """The exchange's attacker plays two cards face up (§6.4)."""

    kind: ClassVar[str] = "play_cards"
    first: str
    second: str

    def __str__(self) -> str:
        return f"  attack with {self.first} and {self.second}"


@dataclass(frozen=True, slots=True)
class Match(Action):
    """The defender lays a card of the same formation against each attacker card ("" = none) (§6.4)."""

    kind: ClassVar[str] = "match"
    first: str
    second: str

    def __str__(self) -> str:
        return f"  match: {self.first or '-'} / {self.second or '-'}"


# --------------------------------------------------------------------------- round end, events, setup
@dataclass(frozen=True, slots=True)
class DrawProject(Action):
    """Chance: a project tile from the stack to the offer (§3, §8.8)."""

    kind: ClassVar[str] = "draw_project"
    project: str

    def __str__(self) -> str:
        return f"project offered: {self.project}"


@dataclass(frozen=True, slots=True)
class DrawEvent(Action):
    """Chance: the round's event card (§4.2, §10.1)."""

    kind: ClassVar[str] = "draw_event"
    event: str

    def __str__(self) -> str:
        return f"event: {self.event}"


@dataclass(frozen=True, slots=True)
class RemoveUnit(Action):
    """Event effect `remove_units` (§10.2): the side removes one of its units from `territory`."""

    kind: ClassVar[str] = "remove_unit"
    territory: str

    def __str__(self) -> str:
        return f"  remove a unit from {self.territory}"


@dataclass(frozen=True, slots=True)
class ReleasePolis(Action):
    """Supply (§8.2): release a non-capital polis that cannot be fed (it becomes neutral)."""

    kind: ClassVar[str] = "release_polis"
    polis: str

    def __str__(self) -> str:
        return f"release {self.polis}"


@dataclass(frozen=True, slots=True)
class PaySupply(Action):
    """Supply (§8.2): pay the wheat, and the shortfall in prestige."""

    kind: ClassVar[str] = "pay_supply"

    def __str__(self) -> str:
        return "pay supply"


@dataclass(frozen=True, slots=True)
class Grow(Action):
    """Growth (§8.3): one wheat for one cube on `polis`."""

    kind: ClassVar[str] = "grow"
    polis: str

    def __str__(self) -> str:
        return f"grow {self.polis}"


@dataclass(frozen=True, slots=True)
class EndGrowth(Action):
    """Growth (§8.3): stop growing this round."""

    kind: ClassVar[str] = "end_growth"

    def __str__(self) -> str:
        return "end growth"


@dataclass(frozen=True, slots=True)
class Phoros(Action):
    """Phoros (§8.6): exchange `amount` prestige for silver."""

    kind: ClassVar[str] = "phoros"
    amount: int

    def __str__(self) -> str:
        return f"phoros: {self.amount} prestige to silver"


ACTION_CLASSES: tuple[type[Action], ...] = (
    Pass,
    PayExtra,
    CreateHoplites,
    CreateGalleys,
    CreateMerchants,
    StartProject,
    MoveHoplites,
    MoveGalleys,
    MoveFrom,
    EndMove,
    Besiege,
    SiegeRoll,
    StartSiege,
    ContinueSiege,
    ForceSiege,
    StopForcing,
    Garrison,
    Collect,
    Trade,
    MarketRoll,
    MoveProxenos,
    RedeemProxenos,
    CivilWar,
    ChooseBattle,
    DrawCard,
    Retreat,
    Stand,
    PlayCards,
    Match,
    DrawProject,
    DrawEvent,
    RemoveUnit,
    ReleasePolis,
    PaySupply,
    Grow,
    EndGrowth,
    Phoros,
)
CODEC = ActionCodec(ACTION_CLASSES)

_INTERN: dict[tuple[object, ...], Action] = {}


def intern(cls: type[Action], *args: object) -> Action:
    """One shared instance per distinct action (hot paths build no dataclasses)."""
    key = (cls, *args)
    a = _INTERN.get(key)
    if a is None:
        a = cls(*args)
        _INTERN[key] = a
    return a


def describe_action(action: Action) -> str:
    """A readable line for logs and the UI."""
    return str(action)
