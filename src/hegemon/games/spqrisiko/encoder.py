"""The S.P.Q.RisiKo! encoding for reinforcement learning (`ENCODER`, the game's encoder role; `hegemon.rl` wraps
it in numpy): every decision action in a fixed order (counts capped at `COUNT_CAP` / `NAVAL_CAP`), and a seat's
observation built only from what its view shows, seats relative to the observer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.core.actions import Action
from hegemon.core.encoding import onehot
from hegemon.core.roles import EncoderRole
from hegemon.games.spqrisiko import actions as A
from hegemon.games.spqrisiko.board import SYMBOLS
from hegemon.games.spqrisiko.phase import PHASE_NAMES
from hegemon.games.spqrisiko.rules.tables import CARD_SETS
from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL

if TYPE_CHECKING:
    from hegemon.games.spqrisiko.state import SpqrState


class SpqrEncoder:
    """The action list, observation layout and features of one S.P.Q.RisiKo! table size."""

    COUNT_CAP = 60
    NAVAL_CAP = 30

    def __init__(self, state: SpqrState) -> None:
        b = state.board
        self.board = b
        n: int = state.n
        self.n = n
        P, Z = b.n_provinces, b.n_seas
        pid, sid = b.province_ids, b.sea_ids
        acts: list[Action] = [A.DONE, A.WITHDRAW, A.FORGO]
        acts += [A.Claim(pid[p]) for p in range(P)]
        acts += [A.ClaimNeutral(pid[p]) for p in range(P)]
        acts += [A.TradeSet(tuple(SYMBOLS[i] for i in cs)) for cs in CARD_SETS]
        acts += [A.PlaceTrireme(sid[s]) for s in range(Z)]
        acts += [A.PlacePowerCentre(pid[p]) for p in range(P)]
        acts += [A.Reinforce(pid[p]) for p in range(P)]
        acts += [A.Disband(sid[s], pid[p]) for s in range(Z) for p in b.shores[s]]
        acts += [A.Build(pid[p], sid[s]) for p in range(P) for s in b.coasts[p]]
        acts += [
            A.NavalMove(sid[s], sid[t], c)
            for s in range(Z)
            for t in b.sea_links[s]
            for c in range(1, self.NAVAL_CAP + 1)
        ]
        acts += [A.NavalAttack(sid[s], o) for s in range(Z) for o in range(n)]
        acts += [A.SeaAttack(pid[s], pid[t], sid[z]) for s in range(P) for t, z in b.bridges[s]]
        acts += [A.Attack(pid[s], pid[t]) for s in range(P) for t in b.land[s]]
        dests = {(s, t) for s in range(P) for t in b.land[s]} | {
            (s, t) for s in range(P) for t, _ in b.bridges[s]
        }
        acts += [A.Fortify(pid[s], pid[t]) for s, t in sorted(dests)]
        acts += [A.RollDice(d) for d in (1, 2, 3)]
        for cls in (A.Declare, A.MoveIn, A.Move):
            acts += [cls(k) for k in range(1, self.COUNT_CAP + 1)]
        self.actions = list(dict.fromkeys(acts))
        self.layout = [
            ("province owner (relative seat 0..n-1, neutral, free) one-hot", P * (n + 2)),
            ("province legionaries", P),
            ("province power centre", P),
            ("triremes per sea and relative seat", Z * n),
            ("per relative seat: VP, provinces, legionaries, cards, eliminated, to move", n * 6),
            ("own hand per symbol (legionary, banner, trireme, arena)", 4),
            ("deck size, discards per symbol, power centres left", 6),
            ("phase one-hot", len(PHASE_NAMES)),
            ("round, pool, bonus triremes, bonus power centres", 4),
            ("battle kind one-hot (none, naval, land, sea, strategic)", 5),
            ("battle source province one-hot", P),
            ("battle target province one-hot", P),
            ("battle sea one-hot", Z),
            ("battle declared legionaries still alive", 1),
        ]

    def features(self, st: SpqrState, seat: int) -> list[float]:
        """The observation of `seat`, in the order of `layout`, from what its view shows."""
        n, b = self.n, self.board
        P, Z = b.n_provinces, b.n_seas
        rel = [(seat + k) % n for k in range(n)]  # relative seat k -> absolute

        def r(o: int) -> int:
            return (o - seat) % n

        v: list[float] = []
        for p in range(P):
            o = st.owner[p]
            v += onehot(n + 2, n if o == NEUTRAL else (n + 1 if o == FREE else r(o)))
        v += [float(a) for a in st.armies]
        v += [float(x) for x in st.power_centre]
        for s in range(Z):
            v += [float(st.triremes[a][s]) for a in rel]
        cur = st.current_player()
        for a in rel:
            prov = sum(1 for o in st.owner if o == a)
            leg = sum(x for x, o in zip(st.armies, st.owner, strict=True) if o == a)
            v += [
                float(st.vp[a]),
                float(prov),
                float(leg),
                float(sum(st.hands[a])),
                float(st.eliminated[a]),
                float(cur == a),
            ]
        v += [float(x) for x in st.hands[seat]]
        v += [
            float(sum(st.deck)),
            *(float(x) for x in st.discard),
            float(st.opts.power_centres - st.pcs_built),
        ]
        v += onehot(len(PHASE_NAMES), st.phase)
        v += [float(st.round), float(st.pool), float(st.bonus_triremes), float(st.bonus_pcs)]
        bt = st.battle
        kind = bt.kind + 1 if bt else 0
        v += onehot(5, kind)
        v += onehot(P, bt.source if bt and bt.kind != 0 else -1)
        v += onehot(P, bt.target if bt and bt.kind != 0 else -1)
        v += onehot(Z, bt.source if bt and bt.kind == 0 else -1)
        v += [float(bt.alive) if bt and bt.kind == 2 else 0.0]
        return v


ENCODER = EncoderRole(make_encoder=SpqrEncoder)
"""The RL encoding role (`Roles.encoder`): an encoder of a state's table."""
