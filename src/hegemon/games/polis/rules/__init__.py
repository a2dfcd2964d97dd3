"""The Polis rules, one module per subsystem. Every function works on a `PolisState` (typed under
TYPE_CHECKING, to keep imports one-way): `legal_*` append atomic actions to a list, `apply_*` change the state.

flow — the only sequencer of a round: project offer and event, turns, passing, the extra resource, battles after
a turn, the end-of-round steps in order, the next round and the end of the game · common — phases and shared
helpers (cube pool, control, taking a polis) · development — actions 1-4 · movement — actions 5-6 · sieges —
action 7 under the four siege rules · economy — collection and trade (actions 8-9) · proxenos — actions 10-12 ·
battle — §6 · events — §10 · round_end — the steps of §8 · tables — per-board precomputed tables."""
