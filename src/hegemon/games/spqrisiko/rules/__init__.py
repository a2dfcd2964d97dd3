"""The S.P.Q.RisiKo! rules, one module per part of a game. Every function works on a `SpqrState` (typed under
`TYPE_CHECKING` only, so imports stay one-way: state -> rules -> common): `legal_*` list the atomic actions of a
phase in canonical order, `has_*` say whether a phase offers anything but Done (so a phase skip never builds a
list), `apply_*` change the state and return the phase to enter next (or None when they set it themselves).

common — helpers every part shares (enemies, garrisons, protection, sea control, the end of the game) ·
tables — the board's actions, built once per board and indexed by integers ·
index — provinces per party, enemy neighbours, empires and sea control, kept up to date on every change ·
setup — order of play, deal, claims [R 3] · reinforcements — cards, bonuses, placement, navy [R 6]-[R 8] ·
navy — naval movement and combat [R 9], [R 11] · attacks — sea and land attacks, dice, moving in [R 10],
[R 12]-[R 14] · turn — scoring, phase flow, strategic move, card draw, turn end [R 5], [R 15], [R 17]."""
