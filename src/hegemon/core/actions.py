"""Actions: small frozen dataclasses with a JSON codec and a readable str(), plus redaction of hidden parts."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from hegemon.core.errors import InvalidActionError


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses set `kind` (the JSON "type") and hold only ints, strs and tuples."""

    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        """The action as a JSON-ready dict: {"type": kind, field: value, ...}."""
        out: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    def visible_to(self, viewer: int | None) -> Action:
        """This action as `viewer` may see it (None = spectator). Actions revealing hidden parts override it."""
        return self

    def __str__(self) -> str:
        args = " ".join(str(getattr(self, f.name)) for f in dataclasses.fields(self))
        return f"{self.kind} {args}".strip()


def _coerce(name: str, kind: str, hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        for alt in typing.get_args(hint):
            if alt is type(None) and value is None:
                return None
        alts = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(alts) == 1:
            return _coerce(name, kind, alts[0], value)
        raise InvalidActionError(f"{kind}: field {name!r} has an unsupported type")
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidActionError(f"{kind}: field {name!r} must be an integer, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise InvalidActionError(f"{kind}: field {name!r} must be a string, got {value!r}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidActionError(f"{kind}: field {name!r} must be true or false, got {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise InvalidActionError(f"{kind}: field {name!r} must be a list, got {value!r}")
        (item,) = [a for a in typing.get_args(hint) if a is not Ellipsis][:1] or [Any]
        if len(value) > 64:
            raise InvalidActionError(f"{kind}: field {name!r} is too long")
        return tuple(_coerce(name, kind, item, v) for v in value)
    return value


class ActionCodec:
    """Decodes JSON dicts into a game's action classes, checking type and fields (InvalidActionError)."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self.classes: dict[str, type[Action]] = {}
        self._hints: dict[str, dict[str, Any]] = {}
        for cls in classes:
            if cls.kind in self.classes:
                raise ValueError(f"duplicate action kind {cls.kind!r}")
            self.classes[cls.kind] = cls
            self._hints[cls.kind] = typing.get_type_hints(cls)

    def decode(self, obj: Any) -> Action:
        """Turn {"type": ..., fields...} into an action; raise InvalidActionError naming what is wrong."""
        if isinstance(obj, Action):
            if obj.kind not in self.classes or type(obj) is not self.classes[obj.kind]:
                raise InvalidActionError(f"unknown action kind {obj.kind!r}")
            return obj
        if not isinstance(obj, Mapping):
            raise InvalidActionError(f"an action must be a JSON object, got {type(obj).__name__}")
        kind = obj.get("type")
        if not isinstance(kind, str) or kind not in self.classes:
            raise InvalidActionError(
                f"unknown action type {kind!r}; expected one of {', '.join(sorted(self.classes))}"
            )
        cls = self.classes[kind]
        hints = self._hints[kind]
        names = [f.name for f in dataclasses.fields(cls)]
        extra = set(obj) - set(names) - {"type"}
        if extra:
            raise InvalidActionError(f"{kind}: unexpected field(s) {', '.join(sorted(map(str, extra)))}")
        kwargs = {}
        for n in names:
            if n not in obj:
                raise InvalidActionError(f"{kind}: missing field {n!r}")
            kwargs[n] = _coerce(n, kind, hints[n], obj[n])
        return cls(**kwargs)
