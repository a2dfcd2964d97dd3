"""Players' display names: cleaned so that they draw as what they say (`clean_name`), compared by their
confusable skeletons (UTS #39, `name_key`) and made unique at a table (`unique_name`)."""

from __future__ import annotations

import unicodedata
from typing import Any

import icu  # PyICU: the Unicode properties and the UTS #39 confusable skeletons of players' names

from hegemon.server.protocol import MAX_NAME

_INVISIBLE_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Controls (C0 and C1), format characters (bidi overrides and isolates, zero-width spaces and joiners, the
BOM, tag characters…), lone surrogates, private-use and unassigned code points, line and paragraph separators."""


_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw as nothing (Hangul fillers, the blank Braille pattern)."""


_MAX_MARKS = 2
"""Combining marks kept after one base character (more only pile up over the neighbouring text)."""


_ICU: Any = icu  # a compiled module without type information


_IGNORABLE = _ICU.UnicodeSet("[:Default_Ignorable_Code_Point:]")


_IGNORABLE.freeze()  # read-only from here on: safe to share between threads
"""Code points that draw as nothing (Unicode's Default_Ignorable_Code_Point): among them marks the categories
above miss, e.g. U+034F COMBINING GRAPHEME JOINER, the variation selectors, U+17B4 KHMER VOWEL INHERENT AQ."""


_SPOOF = _ICU.SpoofChecker()
"""ICU's UTS #39 implementation: `name_key` asks it for confusable skeletons."""


def clean_name(name: str | None, fallback: str, limit: int = MAX_NAME) -> str:
    """A display name that draws as what it says: NFKC-normalised (full-width and other compatibility forms
    become plain letters), without control characters, bidi overrides, zero-width, Default_Ignorable or other
    invisible characters, with runs of spaces made one space and at most two combining marks per letter; at
    most MAX_NAME characters (HTML escaping is the client's job). An empty result gives `fallback`."""
    if not name:
        return fallback
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFKC", name[: 4 * limit]):
        cat = unicodedata.category(ch)
        if cat in _INVISIBLE_CATEGORIES or ch in _BLANK_LETTERS or _IGNORABLE.contains(ch):
            continue
        if cat.startswith("Z") or ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if cat.startswith("M"):
            if not out or out[-1] == " " or marks >= _MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(ch)
    text = "".join(out).strip()[:limit].strip()
    return text or fallback


def name_key(name: str) -> str:
    """What a name looks like, for telling names apart: its UTS #39 confusable skeleton (ICU's), regardless of
    case: Latin "Ada", Cyrillic "Аda" and "ADA" have the same key."""
    return str(_SPOOF.getSkeleton(0, name.casefold())).casefold()


def unique_name(name: str, others: list[str]) -> str:
    """`name`, with " (2)", " (3)"… added if another seat (a bot's too) already shows a name that looks the same
    (`name_key`: ignoring case and confusable letters), so that no newcomer can take the look of a seat."""
    taken = {name_key(o) for o in others}
    if name_key(name) not in taken:
        return name
    for k in range(2, 100):
        suffix = f" ({k})"
        cand = name[: MAX_NAME - len(suffix)] + suffix
        if name_key(cand) not in taken:
            return cand
    return name
