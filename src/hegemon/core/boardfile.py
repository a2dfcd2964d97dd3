"""Board files are untrusted input: read and parse them within explicit bounds before any game code sees them.

`read_text(path)` refuses a file above `MAX_BOARD_BYTES` before reading it; `loads(text, label)` parses TOML
and walks the result once (iteratively, so a deep document cannot exhaust the stack): the size, the nesting
depth, the number of values, string lengths, integers (at most `MAX_INT` in magnitude, and no digit runs a
parser would choke on) and floats (finite). Every refusal is a `RulesDataError(label, entry, message)` whose
entry names the offending key (`cards.legionary`, `province[3].lat`). `check_int`/`check_count` give the
per-game validators the same wording for their tighter per-entry maxima.

Accepted uploaded boards are stored under a content-hash name (`board_name`), never shown by server path."""

from __future__ import annotations

import hashlib
import math
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from hegemon.core.errors import RulesDataError

MAX_BOARD_BYTES = 128 * 1024
"""Largest board file accepted (the shipped Polis board is 56 KB, the S.P.Q.RisiKo! one 10 KB). The standard
TOML parser is pure Python: this bounds its work on any input to a fraction of a second."""
MAX_DEPTH = 8
"""Deepest nesting of tables and arrays (the shipped boards need 6)."""
MAX_VALUES = 50_000
"""Most values (tables, arrays, strings, numbers) in one board file."""
MAX_STRING = 1_000
"""Longest string value or key."""
MAX_INT = 1_000_000
"""Largest integer magnitude anywhere in a board (each game checks tighter per-entry maxima)."""
MAX_DIGITS = 30
"""Longest run of digits in the text (a 5,000-digit integer is refused before the parser converts it)."""
MAX_KEY_PARTS = 32
"""Most dots in one stretch of text without `=`, `,`, brackets or a line break: a dotted key of thousands of
parts costs the parser quadratic time (60,000 parts: minutes), so such text is refused before parsing."""

T = TypeVar("T")
_KEY_BREAKS = re.compile(r"[=,\[\]{}\n]")
_DIGIT_RUN = re.compile(rf"[0-9][0-9_]{{{MAX_DIGITS},}}")


def board_name(data: bytes) -> str:
    """The name an uploaded board is stored and shown under: a content hash, never a server path."""
    return f"{hashlib.sha256(data).hexdigest()[:24]}.toml"


def read_text(path: str | Path, label: str | None = None) -> str:
    """The text of a board file, refusing a missing, oversized or non-UTF-8 file (RulesDataError)."""
    p = Path(path)
    name = label or str(p)
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_BOARD_BYTES + 1)
    except OSError as e:
        raise RulesDataError(name, "file", f"cannot read ({e.strerror})") from None
    return decode(data, name)


def decode(data: bytes, label: str) -> str:
    """UTF-8 text of an uploaded board, within `MAX_BOARD_BYTES`."""
    if len(data) > MAX_BOARD_BYTES:
        raise RulesDataError(label, "file", f"larger than the maximum {MAX_BOARD_BYTES // 1024} KB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesDataError(label, "file", "not UTF-8 text") from None


def _line_key(text: str, pos: int) -> str:
    """`KEY (line N)` for the line holding `pos` (no regular expression: linear even on a hostile line)."""
    start = text.rfind("\n", 0, pos) + 1
    line_no = text.count("\n", 0, pos) + 1
    eq = text.find("=", start, pos)
    key = text[start:eq].strip()[:60] if eq >= 0 else ""
    return f"{key} (line {line_no})" if key and "#" not in key else f"line {line_no}"


def build(text: str, label: str, parse: Callable[[dict[str, Any], str], T]) -> T:
    """Parse board TOML text within the bounds above and build the game's board with `parse(data, label)`.
    An integer beyond `MAX_INT` in a field the game checks gets the game's own, tighter message ("cards.legionary:
    ... is above the maximum 500"); one the game does not check is refused after it."""
    data, late = _loads(text, label)
    board = parse(data, label)
    if late is not None:
        raise late
    return board


def loads(text: str, label: str) -> dict[str, Any]:
    """Parse board TOML within the bounds above; RulesDataError(label, entry, message) otherwise."""
    data, late = _loads(text, label)
    if late is not None:
        raise late
    return data


def _loads(text: str, label: str) -> tuple[dict[str, Any], RulesDataError | None]:
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BOARD_BYTES:
        raise RulesDataError(label, "file", f"larger than the maximum {MAX_BOARD_BYTES // 1024} KB")
    m = _DIGIT_RUN.search(text)
    if m is not None:
        raise RulesDataError(
            label,
            _line_key(text, m.start()),
            f"a number of more than {MAX_DIGITS} digits (at most {MAX_INT})",
        )
    pos = 0
    for part in _KEY_BREAKS.split(text):
        if part.count(".") > MAX_KEY_PARTS:
            line = (
                text.count("\n", 0, pos) + 1
            )  # parts are split on single characters: this one starts at pos
            raise RulesDataError(
                label,
                f"line {line}",
                f"a dotted key of more than {MAX_KEY_PARTS} parts (at most {MAX_DEPTH} levels)",
            )
        pos += len(part) + 1
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesDataError(label, "file", f"not valid TOML ({e})") from None
    except RecursionError:
        raise RulesDataError(label, "file", f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:  # e.g. a number the parser cannot convert
        raise RulesDataError(label, "file", f"not valid TOML ({e})") from None
    return data, check_tree(data, label)


def check_tree(data: dict[str, Any], label: str) -> RulesDataError | None:
    """Walk parsed data once, without recursion: depth, value count, key/string length, finite floats are
    refused at once naming the entry; the first number beyond `MAX_INT` is returned (see `build`)."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    count = 0
    late: RulesDataError | None = None
    while stack:
        v, where, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise RulesDataError(label, "file", f"more than {MAX_VALUES} values")
        entry = where or "file"
        if isinstance(v, dict):
            if depth >= MAX_DEPTH:
                raise RulesDataError(label, entry, f"nested deeper than {MAX_DEPTH} levels")
            for k, x in v.items():
                if len(k) > MAX_STRING:
                    raise RulesDataError(label, entry, f"a key longer than {MAX_STRING} characters")
                stack.append((x, f"{where}.{k}" if where else k, depth + 1))
        elif isinstance(v, list):
            if depth >= MAX_DEPTH:
                raise RulesDataError(label, entry, f"nested deeper than {MAX_DEPTH} levels")
            stack.extend((x, f"{where}[{i}]", depth + 1) for i, x in enumerate(v))
        elif isinstance(v, bool):
            continue
        elif isinstance(v, (int, float)):
            if isinstance(v, float) and not math.isfinite(v):
                raise RulesDataError(label, entry, f"{v} is not a finite number")
            if abs(v) > MAX_INT and late is None:
                late = RulesDataError(
                    label, entry, f"{v} is beyond ±{MAX_INT}, the limit for any number in a board"
                )
        elif isinstance(v, str) and len(v) > MAX_STRING:
            raise RulesDataError(label, entry, f"a string longer than {MAX_STRING} characters")
    return late


def check_int(label: str, entry: str, v: Any, lo: int, hi: int) -> int:
    """`v` as an integer in [lo, hi], else RulesDataError naming `entry` (a string where a number belongs, too)."""
    if v is None:
        raise RulesDataError(label, entry, "missing (needs an integer)")
    if isinstance(v, bool) or not isinstance(v, int):
        raise RulesDataError(label, entry, f"needs an integer, got {_show(v)}")
    if v > hi:
        raise RulesDataError(label, entry, f"{v} is above the maximum {hi}")
    if v < lo:
        raise RulesDataError(label, entry, f"{v} is below the minimum {lo}")
    return v


def check_number(label: str, entry: str, v: Any, lo: float, hi: float) -> float:
    """`v` as a finite number in [lo, hi], else RulesDataError naming `entry`."""
    if v is None:
        raise RulesDataError(label, entry, "missing (needs a number)")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RulesDataError(label, entry, f"needs a number, got {_show(v)}")
    if not math.isfinite(v) or not lo <= v <= hi:
        raise RulesDataError(label, entry, f"{v} is outside {lo}..{hi}")
    return float(v)


def check_count(label: str, entry: str, n: int, hi: int, what: str) -> None:
    """At most `hi` `what` in `entry`."""
    if n > hi:
        raise RulesDataError(label, entry, f"{n} {what} is above the maximum {hi}")


def _show(v: Any) -> str:
    if isinstance(v, str):
        return f"the string {v[:40]!r}"
    return type(v).__name__
