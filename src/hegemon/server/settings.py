"""The web table's settings, in one place: every environment variable `hegemon serve` reads, its default, its
bounds and what it does, declared once as a field of a frozen dataclass and read by one parser (`load`). A value
out of its bounds, or not a number where one is wanted, is a `SettingsError` naming the variable, before the
server starts. `Settings.from_env()` reads them all; each group (`Limits`, `ReadLimits`, `Expiry`, `OddsLimits`,
`TableLimits`, `WsLimits`, `ServeSettings`) can be made in code too, e.g. `create_app(reads=ReadLimits(work=1))`.
`python -m hegemon.server.settings` prints the table of docs/web-table.md ("Settings")."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hegemon.core.errors import HegemonError

SEND_TIMEOUT = 20.0
"""Seconds one message may take to go out before the connection is dropped (HEGEMON_WS_SEND_TIMEOUT)."""
SEARCH_WORKERS = max(1, (os.cpu_count() or 2) - 1)
"""Threads that run searching bots (`hegemon serve --search-workers`, HEGEMON_SEARCH_WORKERS)."""
SEARCH_BUDGET = 5.0
"""Seconds one searching bot's decision may take (`--search-budget`, HEGEMON_SEARCH_BUDGET)."""
LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("text", "json")


class SettingsError(HegemonError):
    """A setting's value is unreadable or out of its bounds; `env` names the variable, `raw` is what it held."""

    def __init__(self, env: str, raw: object, expected: str) -> None:
        self.env = env
        self.raw = raw
        super().__init__(f"{env}={str(raw)[:100]!r}: give {expected}")


@dataclass(frozen=True)
class Setting:
    """How one field is read: its variable, what it means, and its bounds (`lo` < or <= value <= `hi`) or
    choices; `whole` wants a whole number, `zero_none` reads 0 as "never" (None); `check` validates text."""

    env: str
    help: str
    kind: str = "seconds"  # "seconds", "number", "whole", "choice" or "text"
    lo: float = 0.0
    hi: float = 3600.0
    lo_open: bool = False
    zero_none: bool = False
    choices: tuple[str, ...] = ()
    check: Callable[[str], object] | None = None
    secret: bool = False

    def allowed(self) -> str:
        """The values allowed, in words."""
        if self.kind == "choice":
            return " or ".join(f"`{c}`" for c in self.choices)
        if self.kind == "text":
            return "text"
        lo = "more than 0" if self.lo_open and self.lo == 0 else _num(self.lo)
        what = {"seconds": "seconds", "number": "a number", "whole": "a whole number"}[self.kind]
        return f"{what}, {lo} to {_num(self.hi)}" + ("; 0: never" if self.zero_none else "")

    def parse(self, raw: object) -> Any:
        """The value of `raw` (text from the environment, or a value given in code or on the command line)."""
        if self.kind == "choice":
            choice = str(raw).strip().lower()
            if choice not in self.choices:
                raise SettingsError(self.env, raw, f"one of {', '.join(self.choices)}")
            return choice
        if self.kind == "text":
            text = str(raw).strip()
            if self.check is not None:
                try:
                    self.check(text)
                except ValueError as e:
                    raise SettingsError(self.env, "…" if self.secret else raw, str(e)) from None
            return text
        try:
            v = float(str(raw).strip())
        except ValueError:
            v = float("nan")
        ok = (self.lo < v if self.lo_open else self.lo <= v) and v <= self.hi  # NaN fails both
        if not ok or (self.kind == "whole" and v != int(v)):
            raise SettingsError(self.env, raw, self.allowed())
        if self.zero_none and v == 0:
            return None
        return int(v) if self.kind == "whole" else v


def _num(x: float) -> str:
    return f"{int(x):,}" if x == int(x) else f"{x:g}"


def setting(default: Any, env: str, help: str, **how: Any) -> Any:
    """A dataclass field read from `env` (see `Setting`)."""
    return field(default=default, metadata={"setting": Setting(env, help, **how)})


T = TypeVar("T")


def specs(cls: type) -> Iterator[tuple[str, Any, Setting]]:
    """(field name, default, Setting) of each field of `cls` that is read from the environment."""
    for f in dataclasses.fields(cls):
        spec = f.metadata.get("setting")
        if spec is not None:
            yield f.name, f.default, spec


def load(cls: type[T], environ: Mapping[str, str] | None = None, **given: Any) -> T:
    """The one parser: an instance of the settings dataclass `cls`, each field from `given` (a value given in
    code or on the command line) when not None, else from its environment variable when set and not blank,
    else its default. SettingsError for a value out of bounds."""
    env = os.environ if environ is None else environ
    fields = {name: spec for name, _, spec in specs(cls)}
    if set(given) - set(fields):
        raise TypeError(f"{cls.__name__} has no settings {sorted(set(given) - set(fields))}")
    values: dict[str, Any] = {}
    for name, spec in fields.items():
        raw = given.get(name)
        if raw is None:
            raw = env.get(spec.env)
            if raw is None or raw.strip() == "":
                continue
        values[name] = spec.parse(raw)
    return cls(**values)


class FromEnv:
    """`Cls.from_env(environ=None, **given)`: `load` for a settings dataclass."""

    @classmethod
    def from_env(cls: type[T], environ: Mapping[str, str] | None = None, **given: Any) -> T:
        return load(cls, environ, **given)


def _proxies(text: str) -> object:
    from hegemon.server.guard import parse_proxies

    return parse_proxies(text)


def _public_url(text: str) -> object:
    from hegemon.server.app import public_base

    return public_base(text)


def _token(text: str) -> object:
    from hegemon.server.ops import METRICS_TOKEN_ENV, metrics_token

    return metrics_token({METRICS_TOKEN_ENV: text})


# ---------------------------------------------------------------- the groups


@dataclass(frozen=True)
class ServeSettings(FromEnv):
    """How `hegemon serve` runs (its flags win over these variables)."""

    log_level: str = setting(
        "info", "HEGEMON_LOG_LEVEL", "log level (`--log-level`)", kind="choice", choices=LOG_LEVELS
    )
    log_format: str = setting(
        "text", "HEGEMON_LOG_FORMAT", "log lines as text or one JSON object a line (`--log-format`)",
        kind="choice", choices=LOG_FORMATS,
    )  # fmt: skip
    search_workers: int = setting(
        SEARCH_WORKERS, "HEGEMON_SEARCH_WORKERS", "threads that run searching bots (`--search-workers`; default: "
        "CPUs − 1)", kind="whole", lo=1, hi=256,
    )  # fmt: skip
    search_budget: float = setting(
        SEARCH_BUDGET, "HEGEMON_SEARCH_BUDGET", "seconds one searching bot's decision may take (`--search-budget`)",
        lo_open=True,
    )  # fmt: skip
    public_url: str | None = setting(
        None, "HEGEMON_PUBLIC_URL", "the server's address as players reach it, the start of the links it hands out "
        "(`--public-url`; default: relative links)", kind="text", check=_public_url,
    )  # fmt: skip
    trusted_proxies: str | None = setting(
        None, "HEGEMON_TRUSTED_PROXIES", "addresses or networks (comma-separated) whose X-Forwarded-For is believed "
        "(`--trusted-proxy`; default: none)", kind="text", check=_proxies,
    )  # fmt: skip
    metrics_token: str | None = setting(
        None, "HEGEMON_METRICS_TOKEN", "bearer token for /metrics from other machines (at least 16 printable "
        "characters; default: local requests only)", kind="text", check=_token, secret=True,
    )  # fmt: skip


@dataclass(frozen=True)
class Limits(FromEnv):
    """The network limits of `hegemon serve` (seconds)."""

    request_timeout: float = setting(
        10.0, "HEGEMON_REQUEST_TIMEOUT", "a request's headers and body must arrive within this, else 408",
        lo_open=True,
    )  # fmt: skip
    keep_alive: int = setting(
        5,
        "HEGEMON_KEEP_ALIVE_TIMEOUT",
        "an idle kept-alive HTTP connection is closed after this",
        kind="whole",
        lo=1,
    )
    ws_ping_interval: float = setting(
        20.0, "HEGEMON_WS_PING_INTERVAL", "the server pings every websocket this often…", lo_open=True
    )
    ws_ping_timeout: float = setting(
        20.0, "HEGEMON_WS_PING_TIMEOUT", "…and drops it if the pong is not back within this", lo_open=True
    )
    ws_send_timeout: float = setting(
        SEND_TIMEOUT, "HEGEMON_WS_SEND_TIMEOUT", "one message to a websocket must be taken within this, else the "
        "connection is dropped", lo_open=True,
    )  # fmt: skip


@dataclass(frozen=True)
class ReadLimits(FromEnv):
    """Each client address's budget of read work on the table detail, the table list, a table's glossary and
    its odds: `work` seconds of the server's time per second, after a burst of `burst` seconds; each read is
    charged what it cost on the event loop, in the database and in the odds workers, at least `floor` seconds
    (the framework's share). A client whose budget is spent gets 429 (`rate_limit`, with Retry-After) until it
    has earned some back. With several processes on PostgreSQL, a table id the database does not have is not
    asked about again for `unknown_for` seconds (at most `unknown_ids` ids are kept)."""

    work: float = setting(
        0.1, "HEGEMON_READ_WORK", "read work a client address may cost, per second", lo_open=True
    )
    burst: float = setting(1.0, "HEGEMON_READ_BURST", "…after a burst of this much", lo_open=True)
    floor: float = setting(0.002, "HEGEMON_READ_FLOOR", "the least one read is charged")
    unknown_for: float = setting(
        10.0, "HEGEMON_UNKNOWN_FOR", "a table id the database did not have is answered 404 from memory this long "
        "(0: always ask)",
    )  # fmt: skip
    unknown_ids: int = 20_000


@dataclass(frozen=True)
class Expiry(FromEnv):
    """When tables leave the server (memory and database): `finished_after` seconds after they ended (finished
    or stopped by their creator), `idle_after` seconds after their last move when nobody is connected
    (abandoned). None: never."""

    finished_after: float | None = setting(
        7 * 86400.0, "HEGEMON_EXPIRE_FINISHED", "an ended table is removed this long after its end "
        "(`--expire-finished`)", hi=1e10, zero_none=True,
    )  # fmt: skip
    idle_after: float | None = setting(
        3 * 86400.0, "HEGEMON_EXPIRE_IDLE", "an abandoned table is removed this long after its last move "
        "(`--expire-idle`)", hi=1e10, zero_none=True,
    )  # fmt: skip

    def interval(self) -> float:
        """How often to look: a tenth of the shortest delay, between 1 s and a minute."""
        d = [x for x in (self.finished_after, self.idle_after) if x]
        return min(60.0, max(1.0, min(d) / 10)) if d else 60.0


@dataclass(frozen=True)
class OddsLimits(FromEnv):
    """How the web table computes odds (`server/odds.py`)."""

    workers: int = setting(
        1, "HEGEMON_ODDS_WORKERS", "worker processes computing odds", kind="whole", lo=1, hi=100_000
    )
    timeout: float = setting(
        5.0, "HEGEMON_ODDS_TIMEOUT", "seconds one computation may take in its worker, else it is killed and "
        "answered 503 (the largest takes about 0.3 s of a free core)", lo=0.01,
    )  # fmt: skip
    queue: int = setting(
        8, "HEGEMON_ODDS_QUEUE", "computations that may wait for a worker, over the whole server; more: 503",
        kind="whole", hi=100_000,
    )  # fmt: skip
    per_client: int = setting(
        2, "HEGEMON_ODDS_PER_CLIENT", "computations one client address may have under way at once; more: 429",
        kind="whole", lo=1, hi=100_000,
    )  # fmt: skip
    cache: int = setting(2048, "HEGEMON_ODDS_CACHE", "answers kept, the newest", kind="whole", hi=100_000)


@dataclass(frozen=True)
class TableLimits(FromEnv):
    """How many tables a server keeps going, and how long what nobody uses stays in memory; 0 turns a limit off.

    - `max_tables` live tables (not finished, not stopped) in all: a new one beyond it is refused with 503
      `unavailable`, detail `server_full`;
    - `max_tables_per_client` live tables made from one client address: beyond it 429 `bad_request`, detail
      `too_many_tables` (the client may stop or delete one of its tables);
    - `pause_after`: a table nobody watches (no websocket open, no request about it) for this many seconds
      pauses: its bots stop thinking and its turn timer stops, so it stores nothing more, until someone connects
      or asks for it. A paused table is idle: it expires like an abandoned one;
    - `keep_ended`: an ended table (finished or stopped) leaves memory this many seconds after its end or its
      last watcher, whichever is later; it is read back from the database when asked for;
    - `cached_ended`: ended tables kept in memory at most; the least recently watched leave first."""

    max_tables: int = setting(
        2000, "HEGEMON_MAX_TABLES", "live tables in all (0: no limit)", kind="whole", hi=10_000_000
    )
    max_tables_per_client: int = setting(
        20, "HEGEMON_MAX_TABLES_PER_CLIENT", "live tables made from one client address (0: no limit)",
        kind="whole", hi=10_000_000,
    )  # fmt: skip
    pause_after: float = setting(
        60.0, "HEGEMON_PAUSE_AFTER", "a table nobody watches pauses after this (0: never)", hi=10_000_000
    )
    keep_ended: float = setting(
        60.0, "HEGEMON_KEEP_ENDED", "an ended table leaves memory this long after its end or last watcher",
        hi=10_000_000,
    )  # fmt: skip
    cached_ended: int = setting(
        50, "HEGEMON_CACHED_ENDED", "ended tables kept in memory at most", kind="whole", hi=10_000_000
    )


@dataclass(frozen=True)
class WsLimits(FromEnv):
    """What websockets may cost. `messages` refused messages a second per client address across all its
    websockets, after a burst of `burst` (accepted moves are not counted); a connection that sends `kick_after`
    more past that budget (forgiven at a tenth of that a second) is closed with code 4029 and its address may
    open no websocket for `cooloff` seconds. At most `spectators_per_table` spectators on a table and
    `spectators` on the whole server; a table's spectators are sent at most one update every
    `spectator_interval` seconds (more if a round of sending takes long: spectators take at most about a
    quarter of the event loop)."""

    messages: float = setting(
        50.0, "HEGEMON_WS_MESSAGES", "refused websocket messages a second per client address", kind="number",
        lo=1, hi=1_000_000,
    )  # fmt: skip
    burst: float = setting(
        200.0, "HEGEMON_WS_BURST", "…after a burst of this many", kind="number", lo=1, hi=1_000_000
    )
    kick_after: int = setting(
        50, "HEGEMON_WS_KICK_AFTER", "messages past that budget before the connection is closed (code 4029)",
        kind="whole", lo=1, hi=1_000_000,
    )  # fmt: skip
    cooloff: float = setting(
        10.0, "HEGEMON_WS_COOLOFF", "a flooding address may open no websocket for this long (0: no cool-off)"
    )
    spectators_per_table: int = setting(
        3000, "HEGEMON_SPECTATORS_PER_TABLE", "spectators on one table", kind="whole", lo=1, hi=1_000_000
    )
    spectators: int = setting(
        10_000,
        "HEGEMON_SPECTATORS",
        "spectators on the server (each process)",
        kind="whole",
        lo=1,
        hi=1_000_000,
    )
    spectator_interval: float = setting(
        0.25, "HEGEMON_SPECTATOR_INTERVAL", "a table's spectators get at most one update this often (0: as often "
        "as the sending allows)",
    )  # fmt: skip


GROUPS: dict[str, type] = {
    "serve": ServeSettings, "network": Limits, "reads": ReadLimits, "expiry": Expiry, "odds": OddsLimits,
    "tables": TableLimits, "ws": WsLimits,
}  # fmt: skip


@dataclass(frozen=True)
class Settings:
    """Every setting of the web table, each group read by `load`."""

    serve: ServeSettings = ServeSettings()
    network: Limits = Limits()
    reads: ReadLimits = ReadLimits()
    expiry: Expiry = Expiry()
    odds: OddsLimits = OddsLimits()
    tables: TableLimits = TableLimits()
    ws: WsLimits = WsLimits()

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Mapping[str, Any]) -> Settings:
        """All settings from `environ` (default: the process environment); `given` maps a group's name to the
        values given on the command line (None: not given), e.g. `serve={"log_level": "debug"}`."""
        unknown = set(given) - set(GROUPS)
        if unknown:
            raise TypeError(f"no settings group {sorted(unknown)}")
        return cls(**{name: load(group, environ, **given.get(name, {})) for name, group in GROUPS.items()})


def markdown_table() -> str:
    """The table of every setting (docs/web-table.md, "Settings"), written from the declarations."""
    rows = ["| variable | default | allowed | what |", "| --- | --- | --- | --- |"]
    for group in GROUPS.values():
        for _name, default, spec in specs(group):
            shown = "—" if default is None else f"`{default}`" if isinstance(default, str) else _num(default)
            if spec.env == "HEGEMON_SEARCH_WORKERS":
                shown = "CPUs − 1"
            rows.append(f"| `{spec.env}` | {shown} | {spec.allowed()} | {spec.help} |")
    return "\n".join(rows)


if __name__ == "__main__":  # a documentation tool, not the server: it writes the table and nothing else
    import sys

    sys.stdout.write(markdown_table() + "\n")
