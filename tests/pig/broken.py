"""A module whose `GAME` each registry test sets to a broken Secret Pig (`test_pig.py`): `register_game` must
refuse it with a clear error and register nothing."""

from __future__ import annotations

GAME: object = None
