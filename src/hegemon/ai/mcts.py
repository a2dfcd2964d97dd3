"""Monte-Carlo tree search with honest handling of chance and hidden information.

Information-set MCTS (single observer, open loop): every iteration starts from a fresh *determinization* of
the position — a copy whose hidden parts are resampled consistently with what the bot's seat sees (the
per-game `determinize`) — so the search never reads the true hidden state. Chance nodes are never enumerated:
outcomes are sampled as the iteration walks down, and tree nodes are keyed by decisions only (open loop), so
statistics are shared across dice results and hidden cards. Because the legal actions below a node can differ
between determinizations, selection uses availability counts (UCB over the times an action was available).
Values are vectors (one entry per player, max^n style): the player moving at a node maximises its own entry.
A leaf is valued by the per-game evaluation after the chance and default sub-choices that follow it are
resolved (truncated rollouts); terminal states give the real result.

Budgets: an iteration budget and a time budget per move; the search stops at whichever comes first, so with
the same seed the move is reproducible whenever the iteration budget is the binding one (tests and the lab
use iteration budgets)."""

from __future__ import annotations

import math
import random
import time
from typing import Any

from hegemon.ai.base import register
from hegemon.ai.games import knowledge
from hegemon.ai.search import settle
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, TERMINAL, PlayerId, State
from hegemon.core.play import sample_chance

# strength name -> (iterations per move, seconds per move)
STRENGTHS: dict[str, tuple[int, float]] = {
    "easy": (40, 1.0),
    "normal": (150, 3.0),
    "hard": (500, 10.0),
}


class Node:
    """Decision statistics: visits, the sum of value vectors, how often the action was available."""

    __slots__ = ("avail", "children", "n", "w")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, Node] = {}
        self.n = 0
        self.avail = 0
        self.w = [0.0] * players


class MctsBot:
    """IS-MCTS with sampled chance, availability-UCB selection and evaluation at the leaves."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 150,
        time_limit: float | None = 3.0,
        exploration: float = 0.5,
        max_depth: int = 60,
        rollout: int = 0,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.max_depth = max_depth
        self.rollout = rollout
        self.last_iterations = 0
        self.last_simulated = 0

    def choose(self, state: State, player: PlayerId) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root = self.search(state, player)
        best = max(actions, key=lambda a: (root.children[a].n, root.children[a].w[player]) if a in root.children else (-1, 0.0))
        return best

    def search(self, state: State, player: PlayerId) -> Node:
        """Run the search from `state` for `player`; the root node with every action's statistics."""
        know = knowledge(state)
        root = Node(state.num_players)
        deadline = None if not self.time_limit else time.perf_counter() + self.time_limit
        simulated = 0
        i = 0
        while i < self.iterations:
            if deadline is not None and i and time.perf_counter() > deadline:
                break
            d = know.determinize(state, player, self.rng)
            simulated += self._iterate(root, d, know)
            i += 1
        self.last_iterations = i
        self.last_simulated = simulated
        return root

    def _iterate(self, root: Node, d: Any, know: Any) -> int:
        rng = self.rng
        c = self.exploration
        node = root
        path = [root]
        steps = 0
        depth = 0
        while depth < self.max_depth:
            p = d.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                d.apply(sample_chance(d, rng))
                steps += 1
                continue
            legal = d.legal_actions()
            if len(legal) == 1:
                d.apply(legal[0])
                steps += 1
                continue
            children = node.children
            untried = []
            for a in legal:
                ch = children.get(a)
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                a = untried[int(rng.random() * len(untried))]
                child = children[a] = Node(len(node.w))
                child.avail = 1
                d.apply(a)
                steps += 1
                path.append(child)
                break
            best_a = legal[0]
            best_v = -math.inf
            for a in legal:
                ch = children[a]
                v = ch.w[p] / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
                if v > best_v:
                    best_v, best_a = v, a
            node = children[best_a]
            d.apply(best_a)
            steps += 1
            path.append(node)
            depth += 1
        settle(d, know, rng)
        for _ in range(self.rollout):
            p = d.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                d.apply(sample_chance(d, rng))
            else:
                legal = d.legal_actions()
                d.apply(legal[int(rng.random() * len(legal))])
            steps += 1
        value = know.evaluate(d)
        for nd in path:
            nd.n += 1
            w = nd.w
            for k, v in enumerate(value):
                w[k] += v
        return steps


def parse_strength(arg: str) -> tuple[int, float | None]:
    """`easy|normal|hard`, or `N` iterations, optionally `N@S` with a time budget of S seconds (0: none)."""
    arg = arg.strip()
    if not arg:
        arg = "normal"
    if arg in STRENGTHS:
        return STRENGTHS[arg]
    head, _, tail = arg.partition("@")
    try:
        iters = int(head)
        limit = float(tail) if tail else 0.0
    except ValueError:
        raise ConfigError(
            "bot", f"mcts strength {arg!r}: use easy, normal, hard, N (iterations) or N@SECONDS"
        ) from None
    if iters < 1:
        raise ConfigError("bot", "mcts needs at least one iteration")
    return iters, (limit or None)


def _factory(arg: str, seed: int) -> MctsBot:
    iters, limit = parse_strength(arg)
    return MctsBot(seed, iterations=iters, time_limit=limit)


register("mcts", _factory)
