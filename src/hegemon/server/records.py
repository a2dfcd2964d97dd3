"""Past and stored positions of a table (`RecordsMixin` of `TableManager`): the position after any stored
version, the stored view, the lobby summary and detail, the game record (encoded in chunks off the event loop's
turn) and the replay view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hegemon.core.game import State
from hegemon.core.record import GameRecord, canonical_json, state_digest
from hegemon.games import get_game
from hegemon.server.boards import board_label
from hegemon.server.table import MAX_REPLAY_LOG, REPLAY_EVERY, REPLAY_LOG, Table


class RecordsMixin:
    """The readers of past and stored positions of `TableManager`; what they use of it is declared here."""

    if TYPE_CHECKING:

        def log_json(
            self, table: Table, seat: int | None, start: int = 0, end: int | None = None
        ) -> list[dict[str, Any]]: ...

    def state_at(self, t: Table, upto: int) -> State:
        """The position after `upto` actions (the live state itself at the current version: do not change it).
        Starts from the nearest checkpoint: at most REPLAY_EVERY - 1 actions are applied."""
        upto = max(0, min(upto, t.version))
        if upto == t.version:
            return t.state
        cps = t.replay_checkpoints
        base = upto - upto % REPLAY_EVERY
        while base > 0 and base not in cps:  # checkpoints are made as the game is played: this is rare
            base -= REPLAY_EVERY
        state = cps[base].clone() if base in cps else t.game.new_game(t.options, t.seed)
        for i in range(base, upto):
            state.apply(t.log[i].action)
            if (i + 1) % REPLAY_EVERY == 0 and (i + 1) not in cps:
                cps[i + 1] = state.clone()
        return state

    def stored_view(self, t: Table, seat: int | None) -> dict[str, Any]:
        """The view of the last stored (durable) version: what REST shows. Nobody sees a position the database
        does not hold yet; usually it is the current one (the gap lasts one turn of the event loop, or as long as
        the database refuses writes)."""
        if t.durable >= t.version:
            return t.view(seat)
        cached = t.durable_state
        if cached is None or cached[0] != t.durable:
            cached = t.durable_state = (t.durable, self.state_at(t, t.durable))
        v = cached[1].view(seat)
        v.setdefault("legal_actions", [])
        return v

    def stored_status(self, t: Table) -> str:
        if t.finished and not t.stopped and t.durable < t.version:
            return "playing"
        return t.status

    def summary(self, t: Table) -> dict[str, Any]:
        view = self.stored_view(t, None)
        return {
            "id": t.id,
            "game": t.name,
            "title": get_game(t.name).title,
            "status": self.stored_status(t),
            "version": min(t.durable, t.version),
            "created": t.created,
            "seats": [s.public() for s in t.seats],
            "open_seats": sum(1 for s in t.seats if s.kind == "human" and not s.claimed),
            "joinable": sum(1 for s in t.seats if s.kind == "human" and s.open and not s.claimed),
            "round": view.get("round"),
            "turn_timer": t.turn_timer,
            "board": board_label(t.game, t.options),
        }

    def detail(self, t: Table, seat: int | None = None) -> dict[str, Any]:
        view = self.stored_view(t, seat)
        return self.summary(t) | {
            "you": seat, "options": t.options.to_json(), "outcome": view.get("outcome"), "view": view,
        }  # fmt: skip

    def record(self, t: Table, seat: int | None) -> GameRecord:
        """The game record of the stored version; while the game runs each action as `seat` saw it and no
        outcome or digest."""
        n = min(t.durable, t.version)
        finished = t.finished and n == t.version
        if finished:
            actions = [e.action.to_json() for e in t.log]
            out = t.state.outcome()
            outcome = out.to_json() if out is not None else None
            digest: str | None = state_digest(t.state)
        else:
            actions = [e.action.visible_to(seat).to_json() for e in t.log[:n]]
            outcome = None
            digest = None
        return GameRecord(
            game=t.name,
            version=t.game.version,
            options=t.options.to_json(),
            seed=t.seed if finished else 0,
            actions=actions,
            seats=[s.name for s in t.seats],
            outcome=outcome,
            digest=digest,
            meta={"table": t.id, "complete": finished, "viewer": seat, "notes": [e.note for e in t.log[:n]]},
        )

    def record_prepare(self, t: Table, seat: int | None, chunk: int = 500) -> bool:
        """Encode up to `chunk` more actions of the record `seat` may read (kept per viewer, so a record is
        encoded once however often it is read); True once every stored action is encoded. The web server calls it
        between turns of the event loop, so a long game never holds the loop."""
        n = min(t.durable, t.version)
        finished = t.finished and n == t.version
        key = "full" if finished else seat
        parts = t.record_parts.setdefault(key, [])
        notes = t.record_parts.setdefault("notes", [])
        end = min(n, len(parts) + chunk)
        for i in range(len(parts), end):
            a = t.log[i].action if finished else t.log[i].action.visible_to(seat)
            parts.append(canonical_json(a.to_json()))
        for i in range(len(notes), min(n, len(notes) + chunk)):
            notes.append(canonical_json(t.log[i].note))
        return len(parts) >= n and len(notes) >= n

    def record_line(self, t: Table, seat: int | None) -> str:
        """The record as one JSON line, byte for byte `record(t, seat).to_line()`, from the parts that
        `record_prepare` encoded (it encodes whatever is missing)."""
        while not self.record_prepare(t, seat, 1 << 30):
            pass
        n = min(t.durable, t.version)
        finished = t.finished and n == t.version
        rec = self.record(t, seat) if n == 0 else None
        if rec is not None:
            return rec.to_line()
        shell = GameRecord(
            game=t.name, version=t.game.version, options=t.options.to_json(), seed=t.seed if finished else 0,
            actions=[], seats=[s.name for s in t.seats], outcome=None, digest=None,
            meta={"table": t.id, "complete": finished, "viewer": seat, "notes": []},
        )  # fmt: skip
        if finished:
            out = t.state.outcome()
            shell.outcome = out.to_json() if out is not None else None
            shell.digest = state_digest(t.state)
        line = shell.to_line()
        parts = t.record_parts["full" if finished else seat][:n]
        notes = t.record_parts["notes"][:n]
        assert line.startswith('{"actions":[]')
        line = '{"actions":[' + ",".join(parts) + "]" + line[len('{"actions":[]') :]
        meta = line.index('"meta":{')
        at = line.index('"notes":[]', meta)
        return line[:at] + '"notes":[' + ",".join(notes) + "]" + line[at + len('"notes":[]') :]

    def replay_view(
        self, t: Table, upto: int, seat: int | None, log_lines: int = REPLAY_LOG
    ) -> dict[str, Any]:
        """The position after `upto` actions as `seat` saw it, with the `log_lines` log lines just before it
        (`log_start`: the index of the first). Only stored versions are shown."""
        steps = min(t.durable, t.version)
        upto = max(0, min(upto, steps))
        view = self.state_at(t, upto).view(seat)
        view["legal_actions"] = []
        start = max(0, upto - max(0, min(log_lines, MAX_REPLAY_LOG)))
        log = self.log_json(t, seat, start, upto)
        return {"step": upto, "steps": steps, "view": view, "log": log, "log_start": start}
