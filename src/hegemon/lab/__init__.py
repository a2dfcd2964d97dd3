"""The variant lab: bots play seeded, seat-rotated, paired games under rule variants; the results are stored
as replayable JSON lines and summarised with intervals and tests (`hegemon lab compare|tournament|report`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hegemon.lab.sweep import Sweep, Unit, plan_units, run_units

__all__ = ["Sweep", "Unit", "plan_units", "run_units"]


def __getattr__(name: str) -> Any:
    # the sweep (and the bots it imports) load on first use, so that `hegemon.lab.cli` imports fast
    if name in __all__:
        from hegemon.lab import sweep

        return getattr(sweep, name)
    raise AttributeError(f"module 'hegemon.lab' has no attribute {name!r}")
