"""Typed game options: declared as frozen dataclasses with per-field help and bounds, parsed and validated
from JSON or CLI strings (`ConfigError` names the bad option), with rule-set presets."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar

from hegemon.core.errors import ConfigError


def option(
    default: Any,
    help: str,
    *,
    choices: tuple[Any, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    help_it: str = "",
    choice_help: Mapping[Any, tuple[str, str]] | None = None,
) -> Any:
    """Declare an option field: its default, a one-line explanation (English, optional Italian), its bounds, and
    for a choice one plain sentence per value (English, Italian) saying what it changes."""
    return dataclasses.field(
        default=default,
        metadata={
            "help": help, "help_it": help_it, "choices": choices, "min": minimum, "max": maximum,
            "choice_help": dict(choice_help or {}),
        },
    )  # fmt: skip


class Options:
    """Mixin for option dataclasses. `PRESET_FIELD` names the field whose value selects a preset in `PRESETS`
    (e.g. the rule set); a preset sets defaults that explicit options override."""

    PRESET_FIELD: ClassVar[str | None] = None
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]  # subclasses are dataclasses

    def validate(self) -> None:
        """Cross-field checks; subclasses raise ConfigError."""


class BoardOptions(Options):
    """Options of a game played on a board: each such options dataclass has a `board` field (None: the game's own
    board; else another shipped board's name, an uploaded board's content-hash name or a file's path)."""

    board: str | None


def _convert(cls: type, f: dataclasses.Field[Any], hint: Any, value: Any) -> Any:
    name = f.name
    if isinstance(value, str) and hint is not str:
        low = value.strip().lower()
        if low in ("none", "null", "") and _allows_none(hint):
            return None
        if _base(hint) is bool:
            if low in ("true", "yes", "1", "on"):
                return True
            if low in ("false", "no", "0", "off"):
                return False
            raise ConfigError(name, f"expected true or false, got {value!r}")
        if _base(hint) is int:
            try:
                return int(low)
            except ValueError:
                raise ConfigError(name, f"expected an integer, got {value!r}") from None
    if value is None:
        if _allows_none(hint):
            return None
        raise ConfigError(name, "may not be empty")
    base = _base(hint)
    if base is bool and not isinstance(value, bool):
        raise ConfigError(name, f"expected true or false, got {value!r}")
    if base is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConfigError(name, f"expected an integer, got {value!r}")
    if base is str and not isinstance(value, str):
        raise ConfigError(name, f"expected a string, got {value!r}")
    return value


def _allows_none(hint: Any) -> bool:
    return typing.get_origin(hint) in (types.UnionType, typing.Union) and type(None) in typing.get_args(hint)


def _base(hint: Any) -> Any:
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        alts = [a for a in typing.get_args(hint) if a is not type(None)]
        return alts[0] if len(alts) == 1 else Any
    return hint


def _check(f: dataclasses.Field[Any], value: Any) -> None:
    meta = f.metadata
    if value is None:
        return
    if meta.get("choices") is not None and value not in meta["choices"]:
        allowed = ", ".join(map(str, meta["choices"]))
        raise ConfigError(f.name, f"{value!r} is not one of: {allowed}")
    if meta.get("min") is not None and value < meta["min"]:
        raise ConfigError(f.name, f"must be at least {meta['min']}, got {value}")
    if meta.get("max") is not None and value > meta["max"]:
        raise ConfigError(f.name, f"must be at most {meta['max']}, got {value}")


T = typing.TypeVar("T")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def parse_options(cls: type[T], raw: Mapping[str, Any] | None = None, **overrides: Any) -> T:
    """Build a validated options object from a mapping (JSON or CLI strings); unknown names are errors."""
    data: dict[str, Any] = dict(raw or {})
    data.update(overrides)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]  # an options class is a dataclass
    hints = _hints(cls)  # type: ignore[arg-type]  # functools.cache types its argument as Hashable; a class is
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(unknown[0], f"unknown option; known options: {', '.join(sorted(fields))}")
    values: dict[str, Any] = {}
    preset_field: str | None = getattr(cls, "PRESET_FIELD", None)
    presets: dict[str, dict[str, Any]] = getattr(cls, "PRESETS", {})
    if preset_field is not None:
        f = fields[preset_field]
        chosen = _convert(cls, f, hints[preset_field], data.get(preset_field, f.default))
        _check(f, chosen)
        values[preset_field] = chosen
        values.update(presets.get(chosen, {}))
    for name, value in data.items():
        if name == preset_field:
            continue
        values[name] = _convert(cls, fields[name], hints[name], value)
    for name, value in values.items():
        _check(fields[name], value)
    obj = cls(**values)
    validate = getattr(obj, "validate", None)
    if validate is not None:
        validate()
    return obj


def describe_options(cls: type) -> list[dict[str, Any]]:
    """Every option with its type, default, choices, bounds and explanation (for `hegemon rules` and the UI)."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        base = _base(hints[f.name])
        out.append(
            {
                "name": f.name,
                "type": getattr(base, "__name__", str(base)),
                "nullable": _allows_none(hints[f.name]),
                "default": f.default,
                "choices": list(f.metadata["choices"]) if f.metadata.get("choices") else None,
                "min": f.metadata.get("min"),
                "max": f.metadata.get("max"),
                "help": f.metadata.get("help", ""),
                "help_it": f.metadata.get("help_it", ""),
                "choice_help": {str(k): v[0] for k, v in f.metadata.get("choice_help", {}).items()},
                "choice_help_it": {str(k): v[1] for k, v in f.metadata.get("choice_help", {}).items()},
            }
        )
    return out
