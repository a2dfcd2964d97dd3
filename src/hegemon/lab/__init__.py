"""The variant lab: bots play seeded, seat-rotated, paired games under rule variants; the results are stored
as replayable JSON lines and summarised with intervals and tests (`hegemon lab compare|tournament|report`)."""

from hegemon.lab.sweep import Sweep, Unit, plan_units, run_units

__all__ = ["Sweep", "Unit", "plan_units", "run_units"]
