"""The Polis encoding for reinforcement learning (`ENCODER`, the game's encoder role;
`hegemon.rl` wraps it in numpy): every decision action in a fixed order (counts capped at `COUNT_CAP`,
`MOVE_CAP`, `PHOROS_CAP`), and a side's observation built only from what its view shows (self first)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from hegemon.core.actions import Action
from hegemon.core.encoding import onehot
from hegemon.core.roles import EncoderRole
from hegemon.games.polis import actions as A
from hegemon.games.polis.board import RESOURCES
from hegemon.games.polis.rules.common import PHASE_NAMES

if TYPE_CHECKING:
    from hegemon.games.polis.state import PolisState


class PolisEncoder:
    """The action list, observation layout and features of Polis."""

    COUNT_CAP = 12
    MOVE_CAP = 10
    PHOROS_CAP = 60

    def __init__(self, state: PolisState) -> None:
        b = state.board
        self.b = b
        poleis, terrs, markets, projects = b.polis_ids, b.terr_ids, b.market_ids, b.project_ids
        cards = [k.name for k in b.card_kinds]
        acts: list[Action] = [
            A.intern(A.Pass),
            A.intern(A.EndMove),
            A.intern(A.ForceSiege),
            A.intern(A.StopForcing),
            A.intern(A.RedeemProxenos),
            A.intern(A.Stand),
            A.intern(A.PaySupply),
            A.intern(A.EndGrowth),
            A.Garrison(True),
            A.Garrison(False),
        ]
        acts += [A.PayExtra(r) for r in RESOURCES]
        create: tuple[Any, ...] = (A.CreateHoplites, A.CreateGalleys, A.CreateMerchants)
        for cls in create:
            acts += [cls(q, k, s) for q in poleis for k in range(1, self.COUNT_CAP + 1) for s in range(k + 1)]
        acts += [A.StartProject(p, q) for p in projects for q in poleis]
        acts += [A.MoveHoplites(t) for t in terrs] + [A.MoveGalleys(t) for t in terrs]
        acts += [A.MoveFrom(t, c) for t in terrs for c in range(1, self.MOVE_CAP + 1)]
        by_polis: tuple[Any, ...] = (
            A.Besiege,
            A.StartSiege,
            A.ContinueSiege,
            A.MoveProxenos,
            A.CivilWar,
            A.ReleasePolis,
            A.Grow,
        )
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
            (
                "per side (self, opponent): 6 resources, prestige, passed, merchants in port, merchants, "
                "proxenos captured, hand size",
                2 * 12,
            ),
            ("proxenos polis one-hot (self, opponent)", Q * 2),
            ("own combat cards per kind", K),
            ("market shiploads taken, market closed", len(markets) * 2),
            ("market values", len(state.market_markers)),
            ("round one-hot", len(b.round_names)),
            ("phase one-hot", self.n_phases),
            ("to move, first player, turns this round, actions this turn", 4),
            ("project offer one-hot, projects under construction one-hot", len(projects) * 2),
            ("battle territory one-hot", T),
            ("battle: attacker is self, deck size", 2),
            ("cards played by the attacker this exchange, per kind", K),
        ]

    def features(self, st: PolisState, seat: int) -> list[float]:
        """The observation of `seat`, in the order of `layout`, from what its view shows."""
        b = self.b
        me, op = seat, 1 - seat
        Q, T = b.n_poleis, b.n_terr
        v: list[float] = []
        for q in range(Q):
            o = st.owner[q]
            v += onehot(3, 0 if o == me else (1 if o == op else 2))
        v += [float(x) for x in st.pop]
        v += [float(sum(1 for p in st.slots[q] if p >= 0)) for q in range(Q)]
        v += [float(x) for x in st.discs[me]] + [float(x) for x in st.discs[op]]
        v += [float(x) for x in st.units[me]] + [float(x) for x in st.units[op]]
        v += [float(x) for x in st.exhausted]
        for s in (me, op):
            v += [float(x) for x in st.res[s]]
            v += [
                float(st.pp[s]),
                float(st.passed[s]),
                float(st.merchants_in_port[s]),
                float(st.merchants[s]),
                float(st.proxenos_captured[s]),
                float(sum(st.hands[s])),
            ]
        v += onehot(Q, st.proxenos[me]) + onehot(Q, st.proxenos[op])
        v += [float(x) for x in st.hands[me]]
        v += [float(x) for x in st.shiploads_taken] + [float(x) for x in st.market_closed]
        v += [float(x) for x in st.market_markers]
        v += onehot(len(b.round_names), st.round)
        v += onehot(self.n_phases, st.phase)
        v += [float(st.current_player() == me), float(st.first == me), float(st.turns), float(st.n_actions)]
        P = len(b.project_ids)
        offer = [0.0] * P
        for p in st.offer:
            offer[p] = 1.0
        started = [0.0] * P
        for p in st.started:
            started[p] = 1.0
        v += offer + started
        v += onehot(T, st.battle_at)
        v += [
            float(st.battle_at >= 0 and st.attacker == me),
            float(sum(st.deck)) if st.battle_at >= 0 else 0.0,
        ]
        played = [0.0] * len(st.deck)
        if st.played:
            for k in st.played:
                played[k] += 1.0
        v += played
        return v


ENCODER = EncoderRole(make_encoder=PolisEncoder)
"""The RL encoding role (`Roles.encoder`): an encoder of a state's table."""
