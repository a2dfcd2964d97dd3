"""Taking back a seat's last action (`UndoMixin` of `TableManager`): what may be taken back (`undo_span`: nothing
random or hidden revealed since), the request the other seated players answer, and the stored undo row."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hegemon.core.game import CHANCE, State, views
from hegemon.server.protocol import ServerError
from hegemon.server.storage import Storage
from hegemon.server.table import Table

UNDO_MODES = ("off", "agree", "always")
"""A table's undo setting, chosen at its creation: no undo; an undo when every other seated person agrees (bots
agree); an undo whenever it is allowed."""


UNDO_NOTE = "undo"
"""The note of a stored undo row."""


UNDO_ASK_EVERY = 2.0
"""Seconds between two undo requests of one seat (each costs a replay of the position before the action)."""


def public_request(req: dict[str, Any] | None) -> dict[str, Any] | None:
    if req is None:
        return None
    return {"seat": req["seat"], "version": req["upto"], "agreed": list(req["agreed"])}


_NOT_PRIVATE = frozenset(("legal_actions", "action_effects", "score_preview", "blocked", "you", "player", "side",
                          "seat"))  # fmt: skip
"""What a seat's view adds that is not hidden from anyone: who it is, what it may do now, the previews of those
actions and of its score, and why what it may look for is not possible now (`blocked`), all computed from what
every player sees. What remains of the difference
between a seat's view and a spectator's is hidden information (the hands of cards)."""


def _private(view: dict[str, Any], public: dict[str, Any]) -> Any:
    """What a seat's view shows that the spectator's does not (deeply: the parts that differ), without what only
    says whose view it is or what it may do now."""

    def diff(a: Any, b: Any) -> Any:
        if isinstance(a, dict) and isinstance(b, dict):
            out = {
                k: d
                for k, v in a.items()
                if k not in _NOT_PRIVATE and (d := diff(v, b.get(k, _MISSING))) is not None
            }
            return out or None
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            items = [diff(x, y) for x, y in zip(a, b, strict=True)]
            return items if any(x is not None for x in items) else None
        return None if a == b else a

    return diff(view, public)


_MISSING = object()


class UndoMixin:
    """The undo methods of `TableManager`; what they use of it is declared here."""

    storage: Storage
    clock: Callable[[], float]

    if TYPE_CHECKING:

        @staticmethod
        def _check_open(table: Table) -> None: ...

        @staticmethod
        def _check_current(table: Table) -> None: ...

        def _check_storage(self) -> None: ...

        def _tell_seated(self, table: Table, msg: dict[str, Any]) -> None: ...

        def _notify(self, table: Table) -> None: ...

        def _take_back(self, table: Table, first: int) -> None: ...

        def _update_timer(self, table: Table) -> None: ...

        def _changed(self, table: Table) -> None: ...

        def state_at(self, t: Table, upto: int) -> State: ...

    def undo_span(self, table: Table, seat: int) -> int:
        """The first log index an undo by `seat` would take back (everything from it on), or a typed refusal
        (bad_request): `undo_off`, `undo_nothing`, `undo_not_yours` (the last action is someone else's),
        `undo_chance` (a die was rolled or a card drawn since), `undo_hidden` (the action revealed something
        hidden), or the table's own refusals (over, stopped, catching up, database down).

        The span is `seat`'s last decision and the forced moves the server played after it (one legal action:
        deterministic). It is undoable when no chance outcome is in it (chance draws are log entries of their
        own, so "no chance entry" means the chance stream was not drawn from) and nothing hidden changed: every
        action of it reads the same to every viewer (`visible_to`), and each seat's private part of its view
        (what it sees that a spectator does not: a hand of cards) is the same before and after."""
        if table.undo == "off":
            raise ServerError("bad_request", "undo is off at this table", detail="undo_off")
        self._check_open(table)
        self._check_current(table)
        if table.durable != table.version:
            raise ServerError("stale_version", "the last move is still being stored; try again", detail="stale",
                              version=table.version)  # fmt: skip
        i = table.version
        while i > 0:
            e = table.log[i - 1]
            if e.actor == CHANCE:
                raise ServerError("bad_request", "a die was rolled or a card drawn since that action: it stays",
                                  detail="undo_chance")  # fmt: skip
            if e.note != "auto":
                break
            i -= 1
        if i == 0:
            raise ServerError(
                "bad_request", "there is no action of yours to take back", detail="undo_nothing"
            )
        last = table.log[i - 1]
        if last.actor != seat or last.note not in ("", "auto"):
            raise ServerError("bad_request", "the last action is not yours: only your own last action can be taken "
                              "back", detail="undo_not_yours")  # fmt: skip
        first = i - 1
        viewers: list[int | None] = [*range(len(table.seats)), None]
        for e in table.log[first:]:
            if any(e.action.visible_to(v) != e.action for v in viewers):
                raise ServerError("bad_request", "that action revealed something hidden: it stays",
                                  detail="undo_hidden")  # fmt: skip
        before = views(self.state_at(table, first), viewers)
        after = views(table.state, viewers)
        for p in range(len(table.seats)):
            if _private(before[p], before[None]) != _private(after[p], after[None]):
                raise ServerError("bad_request", "that action revealed something hidden: it stays",
                                  detail="undo_hidden")  # fmt: skip
        return first

    def _ask_limit(self, table: Table, seat: int) -> None:
        now = self.clock()
        if now - table.undo_asked.get(seat, -1e9) < UNDO_ASK_EVERY:
            raise ServerError("bad_request", f"one undo request every {UNDO_ASK_EVERY:g} s", detail="undo_rate",
                              args={"every": UNDO_ASK_EVERY})  # fmt: skip
        table.undo_asked[seat] = now

    def request_undo(self, table: Table, seat: int) -> str:
        """`seat` asks to take back its last action: done now ("done") on an "always" table or when no other seated
        person must agree, else a request the others answer ("asked"; bots agree: an undo never takes back a
        draw, so it tells nobody anything). Refusals: see `undo_span`."""
        self._check_storage()
        self._ask_limit(table, seat)
        first = self.undo_span(table, seat)
        others = [s.index for s in table.seats if s.kind == "human" and s.index != seat]
        if table.undo == "always" or not others:
            self._undo(table, seat, first)
            return "done"
        table.undo_request = {"seat": seat, "upto": table.version, "first": first, "agreed": [seat]}
        self._tell_seated(table, {"type": "undo_request", "request": public_request(table.undo_request)})
        self._notify_all(table)
        return "asked"

    def answer_undo(self, table: Table, seat: int, accept: Any) -> str:
        """Another seated player's answer to the pending undo request: refused ("refused": the request ends),
        or agreed (the undo is done once everyone agreed: "done", else "waiting")."""
        req = table.undo_request
        if req is None or req["upto"] != table.version:
            raise ServerError("bad_request", "there is no undo request to answer", detail="undo_no_request")
        if not isinstance(accept, bool):
            raise ServerError("bad_request", "accept is true or false", detail="message_form")
        if seat == req["seat"]:
            if not accept:  # the asker withdraws
                table.undo_request = None
                self._tell_seated(table, {"type": "undo_request", "request": None, "why": "withdrawn"})
                self._notify_all(table)
                return "refused"
            return "waiting"
        if not accept:
            table.undo_request = None
            self._tell_seated(table, {"type": "undo_request", "request": None, "why": "refused", "by": seat})
            self._notify_all(table)
            return "refused"
        if seat not in req["agreed"]:
            req["agreed"].append(seat)
        people = {s.index for s in table.seats if s.kind == "human"}
        if not people <= set(req["agreed"]):
            self._tell_seated(table, {"type": "undo_request", "request": public_request(req)})
            return "waiting"
        self._check_storage()
        first = self.undo_span(table, req["seat"])
        self._undo(table, req["seat"], first)
        return "done"

    def _undo(self, table: Table, seat: int, first: int) -> None:
        """Store the undo (a row of its own, note "undo": the database's versions only grow), and take the log
        back once it is committed. Meanwhile the table takes no move (`undoing`); if the row is refused (another
        process stored a move first) nothing was taken back and the table catches up."""
        table.undoing = True
        table.undo_request = None
        self.storage.append_action(table.id, table.rows, {"undo": first}, seat, UNDO_NOTE)

        def stored() -> None:
            table.undoing = False
            self._take_back(table, first)
            self._tell_seated(table, {"type": "undo_request", "request": None, "why": "done", "by": seat})
            for c in table.connections:  # spectators too: the log they hold is longer than the table's
                c.errors.append({"type": "undone", "seat": seat, "version": table.version})
            self._update_timer(table)
            self._changed(table)

        def refused(_reason: str) -> None:
            table.undoing = False

        self.storage.after_commit(stored, table.id, refused)

    def _notify_all(self, table: Table) -> None:
        table.seats_epoch += 1  # the state (its undo_request) is sent again to every connection
        self._notify(table)
