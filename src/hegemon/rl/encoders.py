"""Fixed action spaces and observation vectors for each game (see `hegemon.rl` for the layouts).

Each encoder enumerates every decision action a game can offer, in a fixed order (counts are capped: a
legal action above a cap is simply absent from the space; the smallest counts, which are always legal
first, are always present), and encodes a seat's observation as a float32 vector built only from what
`state.view(seat)` shows. Seats are relative: block 0 is always the observing seat."""

from __future__ import annotations

import abc
import itertools
from typing import Any

import numpy as np

from hegemon.core.actions import Action


class Encoder(abc.ABC):
    """A game's action list, its index, and the observation layout [(name, size), …]."""

    actions: list[Action]
    layout: list[tuple[str, int]]

    def __init__(self) -> None:
        self.index = {a: i for i, a in enumerate(self.actions)}

    @property
    def size(self) -> int:
        return sum(n for _, n in self.layout)

    def mask(self, state: Any) -> np.ndarray:
        m = np.zeros(len(self.actions), dtype=np.int8)
        for a in state.legal_actions():
            i = self.index.get(a)
            if i is not None:
                m[i] = 1
        return m

    @abc.abstractmethod
    def encode(self, state: Any, seat: int) -> np.ndarray:
        """The observation vector of `seat` (each game's encoder documents its layout)."""


def _onehot(n: int, i: int) -> list[float]:
    v = [0.0] * n
    if 0 <= i < n:
        v[i] = 1.0
    return v


class SpqrEncoder(Encoder):
    COUNT_CAP = 60
    NAVAL_CAP = 30

    def __init__(self, state: Any) -> None:
        from hegemon.games.spqrisiko import actions as A
        from hegemon.games.spqrisiko import state as S

        b = state.board
        self.board = b
        self.n = n = state.n
        P, Z = b.n_provinces, b.n_seas
        pid, sid = b.province_ids, b.sea_ids
        acts: list[Action] = [A.DONE, A.WITHDRAW, A.FORGO]
        acts += [A.Claim(pid[p]) for p in range(P)]
        acts += [A.ClaimNeutral(pid[p]) for p in range(P)]
        acts += [A.TradeSet(tuple(S.SYMBOLS[i] for i in cs)) for cs in S._SETS]
        acts += [A.PlaceTrireme(sid[s]) for s in range(Z)]
        acts += [A.PlacePowerCentre(pid[p]) for p in range(P)]
        acts += [A.Reinforce(pid[p]) for p in range(P)]
        acts += [A.Disband(sid[s], pid[p]) for s in range(Z) for p in b.shores[s]]
        acts += [A.Build(pid[p], sid[s]) for p in range(P) for s in b.coasts[p]]
        acts += [A.NavalMove(sid[s], sid[t], c) for s in range(Z) for t in b.sea_links[s] for c in range(1, self.NAVAL_CAP + 1)]
        acts += [A.NavalAttack(sid[s], o) for s in range(Z) for o in range(n)]
        acts += [A.SeaAttack(pid[s], pid[t], sid[z]) for s in range(P) for t, z in b.bridges[s]]
        acts += [A.Attack(pid[s], pid[t]) for s in range(P) for t in b.land[s]]
        dests = {(s, t) for s in range(P) for t in b.land[s]} | {(s, t) for s in range(P) for t, _ in b.bridges[s]}
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
            ("phase one-hot", len(S.PHASE_NAMES)),
            ("round, pool, bonus triremes, bonus power centres", 4),
            ("battle kind one-hot (none, naval, land, sea, strategic)", 5),
            ("battle source province one-hot", P),
            ("battle target province one-hot", P),
            ("battle sea one-hot", Z),
            ("battle declared legionaries still alive", 1),
        ]
        super().__init__()

    def encode(self, st: Any, seat: int) -> np.ndarray:
        from hegemon.games.spqrisiko.scoring import FREE, NEUTRAL

        n, b = self.n, self.board
        P, Z = b.n_provinces, b.n_seas
        rel = [(seat + k) % n for k in range(n)]  # relative seat k -> absolute

        def r(o: int) -> int:
            return (o - seat) % n

        v: list[float] = []
        for p in range(P):
            o = st.owner[p]
            v += _onehot(n + 2, n if o == NEUTRAL else (n + 1 if o == FREE else r(o)))
        v += [float(a) for a in st.armies]
        v += [float(x) for x in st.power_centre]
        for s in range(Z):
            v += [float(st.triremes[a][s]) for a in rel]
        cur = st.current_player()
        for a in rel:
            prov = sum(1 for o in st.owner if o == a)
            leg = sum(x for x, o in zip(st.armies, st.owner, strict=True) if o == a)
            v += [float(st.vp[a]), float(prov), float(leg), float(sum(st.hands[a])), float(st.eliminated[a]), float(cur == a)]
        v += [float(x) for x in st.hands[seat]]
        v += [float(sum(st.deck)), *(float(x) for x in st.discard), float(st.opts.power_centres - st.pcs_built)]
        v += _onehot(len(_phases()), st.phase)
        v += [float(st.round), float(st.pool), float(st.bonus_triremes), float(st.bonus_pcs)]
        bt = st.battle
        kind = bt.kind + 1 if bt else 0
        v += _onehot(5, kind)
        v += _onehot(P, bt.source if bt and bt.kind != 0 else -1)
        v += _onehot(P, bt.target if bt and bt.kind != 0 else -1)
        v += _onehot(Z, bt.source if bt and bt.kind == 0 else -1)
        v += [float(bt.alive) if bt and bt.kind == 2 else 0.0]
        return np.asarray(v, dtype=np.float32)


def _phases() -> tuple[str, ...]:
    from hegemon.games.spqrisiko.state import PHASE_NAMES

    return PHASE_NAMES


class PolisEncoder(Encoder):
    COUNT_CAP = 12
    MOVE_CAP = 10
    PHOROS_CAP = 60

    def __init__(self, state: Any) -> None:
        from hegemon.games.polis import actions as A
        from hegemon.games.polis.board import RESOURCES
        from hegemon.games.polis.rules.common import PHASE_NAMES

        b = state.b
        self.b = b
        poleis, terrs, markets, projects = b.polis_ids, b.terr_ids, b.market_ids, b.project_ids
        cards = [k.name for k in b.card_kinds]
        acts: list[Action] = [A.intern(A.Pass), A.intern(A.EndMove), A.intern(A.ForceSiege), A.intern(A.StopForcing),
                              A.intern(A.RedeemProxenos), A.intern(A.Stand), A.intern(A.PaySupply), A.intern(A.EndGrowth),
                              A.Garrison(True), A.Garrison(False)]
        acts += [A.PayExtra(r) for r in RESOURCES]
        create: tuple[Any, ...] = (A.CreateHoplites, A.CreateGalleys, A.CreateMerchants)
        for cls in create:
            acts += [cls(q, k, s) for q in poleis for k in range(1, self.COUNT_CAP + 1) for s in range(k + 1)]
        acts += [A.StartProject(p, q) for p in projects for q in poleis]
        acts += [A.MoveHoplites(t) for t in terrs] + [A.MoveGalleys(t) for t in terrs]
        acts += [A.MoveFrom(t, c) for t in terrs for c in range(1, self.MOVE_CAP + 1)]
        by_polis: tuple[Any, ...] = (A.Besiege, A.StartSiege, A.ContinueSiege, A.MoveProxenos, A.CivilWar,
                                     A.ReleasePolis, A.Grow)
        for pcls in by_polis:
            acts += [pcls(q) for q in poleis]
        by_terr: tuple[Any, ...] = (A.Collect, A.ChooseBattle, A.Retreat, A.RemoveUnit)
        for tcls in by_terr:
            acts += [tcls(t) for t in terrs]
        acts += [A.Trade(m, p) for m in markets for p in (False, True)]
        acts += [A.PlayCards(x, y) for x, y in itertools.combinations_with_replacement(cards, 2)]
        acts += [A.Match(x, y) for x in ["", *cards] for y in ["", *cards]]
        acts += [A.Phoros(k) for k in range(self.PHOROS_CAP + 1)]
        self.actions = list(dict.fromkeys(acts))
        Q, T = b.n_poleis, b.n_terr
        K = len(cards)
        self.n_phases = len(PHASE_NAMES)
        self.layout = [
            ("polis owner one-hot (self, opponent, neutral)", Q * 3),
            ("polis population", Q),
            ("polis projects built or started", Q),
            ("siege discs on each polis (self, opponent)", Q * 2),
            ("units per territory (self, opponent)", T * 2),
            ("territory tribute exhausted", T),
            ("per side (self, opponent): 6 resources, prestige, passed, merchants in port, merchants, "
             "proxenos captured, hand size", 2 * 12),
            ("proxenos polis one-hot (self, opponent)", Q * 2),
            ("own combat cards per kind", K),
            ("market shiploads taken, market closed", len(markets) * 2),
            ("market values", len(state.mk_pos)),
            ("round one-hot", len(b.round_names)),
            ("phase one-hot", self.n_phases),
            ("to move, first player, turns this round, actions this turn", 4),
            ("project offer one-hot, projects under construction one-hot", len(projects) * 2),
            ("battle territory one-hot", T),
            ("battle: attacker is self, deck size", 2),
            ("cards played by the attacker this exchange, per kind", K),
        ]
        super().__init__()

    def encode(self, st: Any, seat: int) -> np.ndarray:
        b = self.b
        me, op = seat, 1 - seat
        Q, T = b.n_poleis, b.n_terr
        v: list[float] = []
        for q in range(Q):
            o = st.owner[q]
            v += _onehot(3, 0 if o == me else (1 if o == op else 2))
        v += [float(x) for x in st.pop]
        v += [float(sum(1 for p in st.slots[q] if p >= 0)) for q in range(Q)]
        v += [float(x) for x in st.discs[me]] + [float(x) for x in st.discs[op]]
        v += [float(x) for x in st.units[me]] + [float(x) for x in st.units[op]]
        v += [float(x) for x in st.exhausted]
        for s in (me, op):
            v += [float(x) for x in st.res[s]]
            v += [float(st.pp[s]), float(st.passed[s]), float(st.merch_port[s]), float(st.merch_total[s]),
                  float(st.prox_cap[s]), float(sum(st.hands[s]))]
        v += _onehot(Q, st.prox[me]) + _onehot(Q, st.prox[op])
        v += [float(x) for x in st.hands[me]]
        v += [float(x) for x in st.mk_taken] + [float(x) for x in st.mk_closed]
        v += [float(x) for x in st.mk_pos]
        v += _onehot(len(b.round_names), st.round)
        v += _onehot(self.n_phases, st.phase)
        v += [float(st.current_player() == me), float(st.first == me), float(st.turns), float(st.n_actions)]
        P = len(b.project_ids)
        offer = [0.0] * P
        for p in st.offer:
            offer[p] = 1.0
        started = [0.0] * P
        for p in st.started:
            started[p] = 1.0
        v += offer + started
        v += _onehot(T, st.bt)
        v += [float(st.bt >= 0 and st.b_att == me), float(sum(st.deck)) if st.bt >= 0 else 0.0]
        played = [0.0] * len(st.deck)
        if st.played:
            for k in st.played:
                played[k] += 1.0
        v += played
        return np.asarray(v, dtype=np.float32)


def encoder_for(game: str, state: Any) -> Encoder:
    if game == "spqrisiko":
        return SpqrEncoder(state)
    if game == "polis":
        return PolisEncoder(state)
    raise ValueError(f"no RL encoding for {game!r}")
