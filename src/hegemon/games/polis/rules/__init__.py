"""The Polis rules, one module per subsystem. Every function works on a `PolisState` (duck-typed, to keep
imports one-way): `legal_*` append atomic actions to a list, `apply_*` change the state and move the phase.

common — phases and shared helpers (cube pool, control, taking a polis) · flow — turns, passing, the extra
resource, battle checks after a turn · development — actions 1-4 · movement — actions 5-6 · sieges — action 7
under the four siege rules · economy — collection and trade (actions 8-9) · proxenos — actions 10-12 ·
battle — §6 · events — §10 · round_end — §8-§9."""
