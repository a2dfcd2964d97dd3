"""The table chat of `TableManager` (`ChatMixin`): seated players' lines, cleaned, bounded and rate-limited,
stored before anyone hears them; spectators never read it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hegemon.server.guard import TokenBucket
from hegemon.server.names import clean_name
from hegemon.server.protocol import ServerError
from hegemon.server.storage import Storage
from hegemon.server.table import Connection, Table

CHAT_MAX = 300
"""Characters a chat line may have (after clean-up); a longer one is refused (bad_request `chat_too_long`)."""


CHAT_HISTORY = 100
"""Chat lines kept per table (in memory and in the database): the oldest go first."""


CHAT_BURST = 5


CHAT_RATE = 0.5
"""Chat lines a seat may send: CHAT_BURST at once, then CHAT_RATE a second (one every 2 s); past that
bad_request `chat_rate` (the line is not kept)."""


def clean_text(text: str, limit: int) -> str:
    """A chat line cleaned like a name (`clean_name`: NFKC, no invisible or control characters, one space for
    any run of blanks), without a length cut: the caller refuses what is longer than `limit`. Only the first
    4 × `limit` characters are read (a longer line is refused anyway)."""
    return clean_name(text[: 4 * limit + 1], "", limit=4 * limit + 1)


def _public_line(x: dict[str, Any]) -> dict[str, Any]:
    return {"id": x.get("id"), "seat": x["seat"], "name": x["name"], "text": x["text"], "at": x["at"]}


class ChatMixin:
    """The chat methods of `TableManager`; what they use of it is declared here."""

    storage: Storage
    clock: Callable[[], float]

    if TYPE_CHECKING:

        @staticmethod
        def holds(c: Connection) -> bool: ...

        def _check_storage(self) -> None: ...

        def touch(self, table: Table) -> None: ...

    def seated(self, c: Connection) -> bool:
        """Whether a connection is a seated player's (a person holding a claimed seat): only they read and write
        the chat. Spectators never see it."""
        return c.seat is not None and c.table.seats[c.seat].kind == "human" and self.holds(c)

    def _tell_seated(self, table: Table, msg: dict[str, Any]) -> None:
        for c in table.connections:
            if self.seated(c) and len(c.errors) < 200:
                c.errors.append(dict(msg))
                c.wake()

    def chat_history(self, c: Connection) -> dict[str, Any] | None:
        """The chat a seated connection is sent when it connects (None for a spectator)."""
        if not self.seated(c):
            return None
        return {"type": "chat", "lines": [_public_line(x) for x in c.table.chat], "history": True}

    def chat(self, table: Table, seat: int, text: Any) -> dict[str, Any]:
        """A seated player's chat line: cleaned (`clean_text`), at most CHAT_MAX characters, at most CHAT_BURST
        at once and CHAT_RATE a second per seat; stored (the newest CHAT_HISTORY lines per table) before the
        table's seated players are sent it. Typed refusals (bad_request `chat_empty`, `chat_too_long`,
        `chat_rate`; unauthorized `not_seated`), nothing kept."""
        s = table.seats[seat]
        if s.kind != "human" or not s.claimed:
            raise ServerError(
                "unauthorized", "only a seated player may chat at this table", detail="not_seated"
            )
        if not isinstance(text, str):
            raise ServerError("bad_request", "a chat line is text", detail="chat_empty")
        line = clean_text(text, CHAT_MAX)
        if not line:
            raise ServerError("bad_request", "an empty chat line", detail="chat_empty")
        if len(line) > CHAT_MAX:
            raise ServerError(
                "bad_request", f"a chat line has at most {CHAT_MAX} characters, not {len(line)}",
                detail="chat_too_long", args={"max": CHAT_MAX, "n": len(line)},
            )  # fmt: skip
        self._check_storage()
        now = self.clock()
        bucket = table.chat_buckets.get(seat)
        if bucket is None:
            bucket = table.chat_buckets[seat] = TokenBucket(CHAT_RATE, CHAT_BURST, now)
        if not bucket.allow(now):
            raise ServerError(
                "bad_request", f"too many chat lines: at most {CHAT_BURST} at once, then one every "
                f"{1 / CHAT_RATE:g} s", detail="chat_rate", args={"burst": CHAT_BURST, "every": 1 / CHAT_RATE},
            )  # fmt: skip
        entry = {"id": None, "seat": seat, "name": s.name, "text": line, "at": time.time()}
        table.chat.append(entry)
        del table.chat[:-CHAT_HISTORY]
        self.storage.append_chat(table.id, entry, CHAT_HISTORY)
        self.touch(table)

        def sent() -> None:
            self._tell_seated(table, {"type": "chat", "lines": [_public_line(entry)]})

        def lost(_reason: str) -> None:
            if entry in table.chat:
                table.chat.remove(entry)

        self.storage.after_commit(sent, table.id, lost)
        return entry

    def _merge_chat(self, table: Table, lines: list[dict[str, Any]]) -> None:
        """Chat lines another process stored: those not known here are kept and sent to the seated players."""
        known = {x["id"] for x in table.chat if x.get("id") is not None}
        new = [dict(x) for x in lines if x["id"] not in known]
        if not new:
            return
        table.chat.extend(new)
        table.chat.sort(key=lambda x: (x.get("id") is None, x.get("id") or 0))
        del table.chat[:-CHAT_HISTORY]
        self._tell_seated(table, {"type": "chat", "lines": [_public_line(x) for x in new]})
