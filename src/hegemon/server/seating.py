"""Seats of a table (`SeatingMixin` of `TableManager`): the seat a token holds, joining an open seat, taking a
private seat through its link, and the claim stored before any token is handed out."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from hegemon.server.names import clean_name, unique_name
from hegemon.server.protocol import ServerError
from hegemon.server.storage import Storage
from hegemon.server.table import Seat, Table


class SeatingMixin:
    """The seating methods of `TableManager`; what they use of it is declared here."""

    storage: Storage

    if TYPE_CHECKING:

        @staticmethod
        def _check_open(table: Table) -> None: ...

        @staticmethod
        def _check_current(table: Table) -> None: ...

        def _check_storage(self) -> None: ...

        def _advance(self, table: Table) -> None: ...

        def _changed(self, table: Table) -> None: ...

    def seat_of(self, table: Table, token: str | None) -> int:
        """The seat holding `token` (compared in constant time), else ServerError unauthorized."""
        if token:
            for s in table.seats:
                if secrets.compare_digest(s.token.encode(), token.encode()):
                    if s.kind != "human":
                        break
                    return s.index
        raise ServerError("unauthorized", "this token holds no seat at this table", detail="no_seat")

    def join(self, table: Table, name: str | None = None) -> Seat:
        """Give the first free seat that is open to anyone to a newcomer, with a token minted now for the
        newcomer alone (stored before it is handed out). Private seats are never given out here: they are
        taken through their link (`take`)."""
        self._check_storage()
        self._check_open(table)
        self._check_current(table)
        for s in table.seats:
            if s.kind == "human" and s.open and not s.claimed:
                others = [x.name for x in table.seats if x is not s]
                s.name = unique_name(clean_name(name, s.name), others)
                s.token = secrets.token_urlsafe(18)
                self.claim(table, s.index)
                return s
        raise ServerError(
            "bad_request",
            "no seat open to anyone is free at this table (a private seat is taken through its link)",
            detail="no_open_seat",
        )

    def take(self, table: Table, token: str | None, name: str | None = None) -> Seat:
        """The holder of a private seat's link takes the seat, under `name` (the seat's name is kept when
        none is given, and once the seat is taken)."""
        seat = self.seat_of(table, token)
        s = table.seats[seat]
        if not s.claimed:
            self._check_storage()
            self._check_open(table)
            self._check_current(table)
            others = [x.name for x in table.seats if x is not s]
            s.name = unique_name(clean_name(name, s.name), others)
            self._claim_private(table, s)
        return s

    def _claim_private(self, table: Table, s: Seat) -> None:
        """Claim a private seat for whoever holds its link, under a token minted now: the link's token (which the
        table's creator was given too) no longer holds the seat, so only the taker can read its hand or play it.
        The new token is stored with the claim, before anyone is given it."""
        s.token = secrets.token_urlsafe(18)
        self.claim(table, s.index)

    def claim(self, table: Table, seat: int) -> None:
        s = table.seats[seat]
        if (
            not s.claimed and not table.behind
        ):  # behind: the seat is claimed again once caught up (`catch_up`)
            s.claimed = True
            table.seats_epoch += 1
            sent, expect = [x.to_json() for x in table.seats], table.seats_version
            self.storage.update_table(table.id, seats=sent, status=table.status, seats_version=expect)
            table.seats_version += 1
            table.seats_pending += 1

            def stored() -> None:
                table.seats_pending -= 1
                table.stored_seats, table.stored_seats_version = sent, expect + 1

            def refused(_reason: str) -> None:  # the table went back to its stored seats (`_rollback`)
                table.seats_pending -= 1

            self.storage.after_commit(stored, table.id, refused)
            self._advance(table)
            self._changed(table)
