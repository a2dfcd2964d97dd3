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
from collections.abc import Callable
from typing import Any

from hegemon.ai.base import decision, register
from hegemon.ai.games import knowledge
from hegemon.ai.search import PLAYOUT_LIMIT, one_ply_values, policy, settle
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, TERMINAL, PlayerId, State
from hegemon.core.play import sample_chance
from hegemon.core.roles import BotRole


class Node:
    """Decision statistics: visits, the sum of value vectors, how often the action was available."""

    __slots__ = ("avail", "children", "n", "prior", "w")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, Node] = {}
        self.prior: dict[Action, float] | None = None
        self.n = 0
        self.avail = 0
        self.w = [0.0] * players


class MctsBot:
    """IS-MCTS with sampled chance, availability-UCB selection, a one-ply prior at the root and evaluation at
    the leaves.

    At the root every legal action is first scored by the one-ply evaluation (as the greedy bot does, on a
    determinization); the search then spends its iterations on the `candidates` best of them, with the prior
    as a progressive bias that fades with visits — so search refines, rather than replaces, the evaluation.
    Below the root, untried actions are expanded in a random order (the game's default sub-choice first), or —
    with `inner_prior` — in the order of their own one-ply values, and with `widen` nodes grow progressively
    (about 1 + sqrt(visits) children). Each game's bots role (`BotRole`) may set these, the exploration constant
    and the prior's weight in its `mcts_defaults`, and the search's own evaluation with `evaluate_for(player)`
    (the search's evaluation for the side it plays: Polis gives the search its own weights, and Athens its own
    set; the game's `evaluate` otherwise); an argument given here wins. `evaluation` names another evaluation of
    the game (`BotRole.evaluations`, spec `eval=learned`) for the leaves; the prior keeps the game's own.

    With a turn horizon, `finish` plays the rest of the horizon from wherever the tree stopped before the leaf is
    valued (1: one-ply choices with the search's evaluation, each player for itself; 2: the cheap policy of the
    order of the search's start, sieges first), so every leaf is valued at the same point of the game (without
    it, a leaf the tree left after the turn's first action is valued in the middle of the turn); `playout`
    plays that many further turns the same way (one-ply unless `finish` is 2) before the evaluation. With `to_end`
    (spec `end=1`) the leaf is then played out to the game's end, each side by one ply on its own search evaluation
    (the rollout search's `eval=search` playouts), and valued by the real result: a tree above full playouts
    (UCT as first made, Kocsis and Szepesvari 2006), whose tree, unlike the rollout search's flat root, deepens
    with the budget."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 150,
        time_limit: float | None = 3.0,
        exploration: float | None = None,
        max_depth: int = 60,
        rollout: int = 0,
        candidates: int = 16,
        prior_weight: float | None = None,
        widen: bool | None = None,
        inner_prior: bool | None = None,
        auto_inner: bool | None = None,
        turn_horizon: bool | None = None,
        horizon_turns: int | None = None,
        auto_root: bool | None = None,
        finish: int | None = None,
        playout: int | None = None,
        evaluate: Callable[[Any], list[float]] | None = None,
        evaluation: str | None = None,
        to_end: int | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.max_depth = max_depth
        self.rollout = rollout
        self.candidates = candidates
        self.prior_weight = prior_weight
        self.widen = widen
        self.inner_prior = inner_prior
        self.auto_inner = auto_inner
        self.turn_horizon = turn_horizon
        self.horizon_turns = horizon_turns
        self.auto_root = auto_root
        self.finish = finish
        self.playout = playout
        self.evaluate = evaluate
        self.evaluation = evaluation
        self.to_end = to_end
        self.last_iterations = 0
        self.last_simulated = 0
        self._stratify = False

    def choose(self, state: State, player: PlayerId) -> Action:
        actions = decision(state, player)
        if len(actions) == 1:
            return actions[0]
        know = knowledge(state)
        if self._setting(know, "auto_root", self.auto_root):
            # a sub-choice of a move already chosen (dice, counts): the game's default, as below the root
            auto = know.auto_action(know.determinize(state, player, self.rng), player)
            if auto is not None and auto in actions:
                return auto
        root = self.search(state, player)

        def key(a: Action) -> tuple[int, float]:
            ch = root.children.get(a)
            return (ch.n, ch.w[player] / ch.n) if ch is not None and ch.n else (-1, 0.0)

        return max(actions, key=key)

    @staticmethod
    def _setting(
        know: BotRole, name: str, given: bool | int | float | None, default: bool | int | float = False
    ) -> bool | int | float:
        """A search setting: the argument if given, else the game's `mcts_defaults`, else `default`."""
        if given is not None:
            return given
        return know.mcts_defaults.get(name, default)

    def _one_ply(self, state: Any, player: PlayerId, know: BotRole, samples: int) -> dict[Action, float]:
        """One-ply values of `state`'s actions for `player`; the chance right after an action drawn evenly over
        `samples` draws with the game's `stratify_root` (the root's prior takes the game's `prior_samples`, 2 by
        default)."""
        spread = self._stratify and samples > 1
        return dict(
            one_ply_values(
                state, player, know, self.rng, samples, stratified=spread, evaluate=self._prior_evaluate
            )
        )

    def search(self, state: State, player: PlayerId) -> Node:
        """Run the search from `state` for `player`; the root node with every action's statistics."""
        know = knowledge(state)
        root = Node(state.num_players)
        deadline = None if not self.time_limit else time.perf_counter() + self.time_limit
        self._widen = bool(self._setting(know, "widen", self.widen))
        self._inner = bool(self._setting(know, "inner_prior", self.inner_prior))
        self._auto = bool(self._setting(know, "auto_inner", self.auto_inner))
        self._horizon = bool(self._setting(know, "turn_horizon", self.turn_horizon))
        self._turns = max(1, int(self._setting(know, "horizon_turns", self.horizon_turns, 1)))
        self._c = float(self._setting(know, "exploration", self.exploration, 0.25))
        self._pw = float(self._setting(know, "prior_weight", self.prior_weight, 1.0))
        self._me = player
        self._greedy_finish = int(self._setting(know, "finish", self.finish, 0))
        self._playout = max(0, int(self._setting(know, "playout", self.playout, 0)))
        self._stratify = bool(self._setting(know, "stratify_root", None))
        self._to_end = bool(self._setting(know, "to_end", self.to_end))
        self._policy_eval: dict[int, Callable[[Any], list[float]]] = {}
        if self._to_end:
            side = named_evaluation(know, "search")
            self._policy_eval = {p: side(p) for p in range(state.num_players)}
        # the evaluation: the one given here, else the game's for the side searching (`evaluate_for`), else the
        # game's `evaluate`
        evaluate_for = None if self.evaluate is not None else know.evaluate_for
        if self.evaluation is not None:  # an evaluation asked for by name (`eval=learned`)
            evaluate_for = named_evaluation(know, self.evaluation)
        self._evaluate: Callable[[Any], list[float]] = (
            evaluate_for(player)
            if evaluate_for is not None
            else self.evaluate
            if self.evaluate is not None
            else know.evaluate
        )
        # the prior and the expansion order keep the game's own evaluation: a named evaluation values the leaves
        # only (Polis's learned one was fitted where the search values its leaves, at the end of a turn; as the
        # prior too it lost 36% of 200 games to the plain search: docs/experiments/2026-11-27c-polis-learned-eval.md)
        self._prior_evaluate = self._evaluate
        if self.evaluation is not None:
            hand = know.evaluate_for
            self._prior_evaluate = hand(player) if hand is not None else know.evaluate
        actions = decision(state, player)
        samples = int(self._setting(know, "prior_samples", None, 2))
        seen = self._one_ply(know.determinize(state, player, self.rng), player, know, samples)
        # the candidates are the real position's actions (the player's own, the same in every determinization
        # of his view): one missing from the sample (none ever was; a game whose determinization hid one) gets
        # the lowest value seen, so the root is never empty
        low = min(seen.values(), default=0.5)
        prior = {a: seen.get(a, low) for a in actions}
        ranked = sorted(prior, key=lambda a: -prior[a])
        self._first = know.try_first
        keep = ranked[: self.candidates]
        if self._first is not None:  # the game's plans worth a look even when one ply ranks them low
            keep += [a for a in ranked[self.candidates :] if self._first(a)]
        # the prior as a rank-free bonus in [0, 1] among the candidates
        lo = min(prior[a] for a in keep)
        span = max(prior[a] for a in keep) - lo
        self._bias = {a: ((prior[a] - lo) / span if span > 1e-12 else 0.5) for a in keep}
        self._root = root
        self._default = self._tree_default(know)
        # expansion order below the root (`turn_order`): each player's actions ranked by their one-ply value at
        # the start of the search — the searcher's from the prior, the others' from the game's `turn_start`
        # (the same position with that player to move), when the game has it
        self._order: dict[PlayerId, dict[Action, float]] = {}
        if self._setting(know, "turn_order", None):
            self._order[player] = prior
            # (with a one-turn horizon the tree never reaches the others' turns)
            start = None if self._horizon and self._turns < 2 and not self._playout else know.turn_start
            for other in range(state.num_players):
                if other != player and start is not None:
                    view = start(know.determinize(state, player, self.rng), other)
                    if view is not None:
                        self._order[other] = self._one_ply(view, other, know, 1)
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

    def _iterate(self, root: Node, d: Any, know: BotRole) -> int:
        """One iteration on the determinization `d`: down the tree (a new node at most), the leaf's finish, and
        the evaluation backed up the path; the number of actions applied."""
        rng = self.rng
        bias = self._bias
        node = root
        path = [root]
        steps = 0
        depth = 0
        last: Action | None = None
        mover = self._me  # whose turn the tree is in, and how many times the mover has changed
        changes = 0
        while depth < self.max_depth:
            p = d.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                d.apply(sample_chance(d, rng))
                steps += 1
                continue
            if self._horizon and p != mover:
                changes += 1
                if changes >= self._turns:
                    break  # the horizon's last turn is over: value the position it leaves
                mover = p
            at_root = node is root
            if self._auto and not at_root:
                auto = self._default(d, p, last)
                if auto is not None:  # a sub-choice below the root: the game's default, not a tree node
                    d.apply(auto)
                    last = auto
                    steps += 1
                    continue
            legal = d.legal_actions()
            if len(legal) == 1:
                d.apply(legal[0])
                steps += 1
                continue
            if at_root:
                legal = [a for a in legal if a in bias]
            children = node.children
            untried = []
            for a in legal:
                ch = children.get(a)
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            widen = at_root or not self._widen or len(children) < 1 + math.isqrt(node.n + 1)
            if untried and widen:
                a = self._to_expand(node, untried, at_root, d, p, know)
                child = children[a] = Node(len(node.w))
                child.avail = 1
                d.apply(a)
                last = a
                steps += 1
                if at_root and self._stratify:
                    steps += self._stratified_chance(d, 0)
                path.append(child)
                break
            tried = [a for a in legal if a in children]
            if not tried:
                break
            best_a = self._select(children, tried, p, at_root)
            node = children[best_a]
            d.apply(best_a)
            last = best_a
            steps += 1
            if at_root and self._stratify:
                steps += self._stratified_chance(d, node.n)
            path.append(node)
            depth += 1
        steps += self._finish_leaf(d, know, last, mover, changes)
        if self._to_end:
            steps += self._play_to_end(d, know)
        for _ in range(self.rollout):
            p = d.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                d.apply(sample_chance(d, rng))
            else:
                moves = d.legal_actions()
                d.apply(moves[int(rng.random() * len(moves))])
            steps += 1
        value = self._evaluate(d)
        for nd in path:
            nd.n += 1
            w = nd.w
            for k, v in enumerate(value):
                w[k] += v
        return steps

    def _play_to_end(self, d: Any, know: BotRole) -> int:
        """Play the leaf out to the game's end (`to_end`): each side's move the rollout search's `eval=search`
        playout move (`policy` on its own search evaluation); the number of steps."""
        rng = self.rng
        n = 0
        while n < PLAYOUT_LIMIT:
            p = d.current_player()
            if p == TERMINAL:
                break
            n += 1
            d.apply(
                sample_chance(d, rng) if p == CHANCE else policy(d, p, know, rng, 0, self._policy_eval[p])
            )
        return n

    def _to_expand(
        self, node: Node, untried: list[Action], at_root: bool, d: Any, p: int, know: BotRole
    ) -> Action:
        """Which untried action becomes the new node: at the root the best by the one-ply bias; below it the
        inner prior, or the game's default, its plans and the one-ply order at the start, or one at random."""
        if at_root:
            bias = self._bias
            return max(untried, key=lambda x: bias[x])
        if self._inner:
            if node.prior is None:
                node.prior = self._one_ply(d, p, know, 1)
            pr = node.prior
            return max(untried, key=lambda x: pr.get(x, -1.0))
        auto = know.auto_action(d, p)
        first = self._first
        order = self._order.get(p)
        if auto in untried:
            return auto
        if order is not None:  # the game's plans first, then the best by one ply at the start
            return max(untried, key=lambda x: (first is not None and first(x), order.get(x, -1.0)))
        pool = [x for x in untried if first(x)] if first is not None else untried
        pool = pool or untried
        return pool[int(self.rng.random() * len(pool))]

    def _select(self, children: dict[Action, Node], tried: list[Action], p: int, at_root: bool) -> Action:
        """The child to follow: UCB1 on the siblings' values, normalised to [0, 1] among them (evaluation
        differences between moves are small in absolute terms, and exploration must be relative to them, as in
        MuZero's min-max Q), plus the one-ply bias fading with visits at the root."""
        c = self._c
        pw = self._pw
        bias = self._bias
        qs = [children[a].w[p] / children[a].n for a in tried]
        lo = min(qs)
        span = max(qs) - lo
        scale = 1.0 / span if span > 1e-12 else 0.0
        best_a = tried[0]
        best_v = -math.inf
        for a, q in zip(tried, qs, strict=True):
            ch = children[a]
            v = (q - lo) * scale + c * math.sqrt(math.log(ch.avail) / ch.n)
            if at_root:
                v += pw * bias[a] / (1 + ch.n)
            if v > best_v:
                best_v, best_a = v, a
        return best_a

    def _finish_leaf(self, d: Any, know: BotRole, last: Action | None, mover: int, changes: int) -> int:
        """Bring the leaf to where it is valued: the horizon's turns finished (and the playout's), or the
        defaults settled; the number of actions applied."""
        steps = 0
        if self._horizon:
            steps += self._finish_turn(d, know, last, mover)
            if self._greedy_finish or self._playout:
                p = d.current_player()
                if (
                    changes >= self._turns
                ):  # stopped where the horizon's last turn ended: only the playout's turns
                    left = self._playout
                    mover = p
                else:  # the tree stopped inside a turn of the horizon: finish it (and the horizon's others) first
                    left = self._turns - changes + self._playout
                if left > 0:
                    steps += self._greedy_turns(d, know, last, mover, left)
        elif self._auto:
            steps += self._settle_defaults(d, last)
        else:
            settle(d, know, self.rng)
        return steps

    def _greedy_turns(
        self, d: Any, know: BotRole, last: Action | None, mover: PlayerId, turns: int, limit: int = 400
    ) -> int:
        """Play `turns` turns from `d` (the first the rest of `mover`'s) with one-ply choices: each player to move
        takes the action that maximises its own entry of the search's evaluation one ply ahead (its sub-choices by
        the tree's defaults, chance sampled once); the number of steps. A leaf finished this way is valued at
        the same point of the game whatever depth the tree reached (`finish`), and further turns (`playout`) let
        the evaluation judge the position after the replies it would otherwise have to guess."""
        rng = self.rng
        evaluate = self._evaluate
        n = 0
        while n < limit:
            p = d.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                d.apply(sample_chance(d, rng))
                n += 1
                continue
            if p != mover:
                turns -= 1
                if turns <= 0:
                    break
                mover = p
            a = self._default(d, p, last)
            if a is None:
                legal = d.legal_actions()
                order = self._order.get(p) if self._greedy_finish == 2 else None
                if len(legal) == 1:
                    a = legal[0]
                elif order is not None:  # the cheap policy: the order of the search's start (sieges first)
                    first = self._first
                    a = max(legal, key=lambda x: (first is not None and first(x), order.get(x, -1.0)))
                else:
                    best = -1.0
                    for x in legal:
                        c = d.clone()
                        c.apply(x)
                        settle(c, know, rng, p)
                        v = evaluate(c)[p]
                        if v > best:
                            best, a = v, x
            d.apply(a)
            last = a
            n += 1
        return n

    @staticmethod
    def _stratified_chance(d: Any, visit: int) -> int:
        """The chance event right after a root action (a siege die, a market roll…) drawn from a
        low-discrepancy sequence over the action's visits rather than at random: with a few visits per root
        action, a gamble's average is then close to its expectation (a d4 gives each face once in four
        visits), so the search does not prefer a safe move to a better gamble by the luck of its draws.
        The number of chance steps taken (0 or 1)."""
        if d.current_player() != CHANCE:
            return 0
        outcomes = d.chance_outcomes()
        u = ((visit + 0.5) * 0.6180339887498949) % 1.0
        acc = 0.0
        pick = outcomes[-1][0]
        for a, pr in outcomes:
            acc += pr
            if u < acc:
                pick = a
                break
        d.apply(pick)
        return 1

    @staticmethod
    def _tree_default(know: BotRole) -> Callable[[Any, PlayerId, Action | None], Action | None]:
        """The game's default below the root: `tree_default(state, player, last)` if it has one, else its
        `auto_action` (which ignores the last decision)."""
        if know.tree_default is not None:
            return know.tree_default
        auto = know.auto_action
        return lambda d, p, last: auto(d, p)

    def _settle_defaults(self, d: Any, last: Action | None) -> int:
        """Like `settle`, with the tree's defaults (which may follow the last decision) instead of
        `auto_action`."""
        return self._play_defaults(d, self._default, last, None)

    def _finish_turn(self, d: Any, know: BotRole, last: Action | None, mover: PlayerId | None = None) -> int:
        """Play the rest of `mover`'s turn (by default the searching player's) by the game's
        `finish_default` (its defaults, then ending every phase), so that every leaf is valued at the same
        point: the end of that turn. A game without `finish_default` finishes it by its tree defaults, as far
        as they go."""
        who = self._me if mover is None else mover
        return self._play_defaults(d, know.finish_default or self._default, last, who)

    def _play_defaults(
        self, d: Any, pick: Any, last: Action | None, only: PlayerId | None, limit: int = 400
    ) -> int:
        """Play chance and `pick(d, player, last)` until it has no default, the game ends or (with `only`)
        another player is to move; the number of steps."""
        n = 0
        while n < limit:
            p = d.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                d.apply(sample_chance(d, self.rng))
            else:
                a = None if only is not None and p != only else pick(d, p, last)
                if a is None:
                    break
                d.apply(a)
                last = a
            n += 1
        return n


def parse_strength(arg: str) -> tuple[int, float | None]:
    """`N` iterations, optionally `N@S` with a time budget of S seconds (0: none). The named levels
    (`mcts:easy|normal|hard`) are `ai/levels.py`'s, which reads a spec before this does."""
    arg = arg.strip().lower()
    head, _, tail = arg.partition("@")
    try:
        iters = int(head)
        limit = float(tail) if tail else 0.0
    except ValueError:
        raise ConfigError(
            "bot", f"mcts strength {arg!r}: use a level (easy, normal, hard), N (iterations) or N@SECONDS"
        ) from None
    if iters < 1:
        raise ConfigError("bot", "mcts needs at least one iteration")
    return iters, (limit or None)


# search settings a spec may give after the strength (`mcts:2560:turns=2`): spec key -> (MctsBot argument, type,
# the largest value allowed: bounded, since these multiply the work of a move)
SPEC_SETTINGS: dict[str, tuple[str, type, float]] = {
    "turns": ("horizon_turns", int, 1000),
    "candidates": ("candidates", int, 1000),
    "c": ("exploration", float, 1000),
    "prior": ("prior_weight", float, 1000),
    "finish": ("finish", int, 2),
    "playout": ("playout", int, 4),
    "end": ("to_end", int, 1),
}


EVALUATIONS = ("learned", "ranked", "search")
"""Evaluations a spec may name (`eval=learned`, `eval=ranked`, `eval=search`); a game that has no such evaluation
refuses it when searched. `search` is every game's: the tree search's own evaluation for the side (`evaluate_for`,
the game's `evaluate` where it has none), so a one-ply bot or the rollout search's playouts choose as the tree
search values (Polis: its tuned weights, Athens' own)."""


def named_evaluation(know: BotRole, name: str) -> Callable[[PlayerId], Callable[[Any], list[float]]]:
    """The game's evaluation `name` (`BotRole.evaluations`; `search`: its `evaluate_for`, else its `evaluate`), as
    `evaluate_for`; ConfigError if it has none."""
    if name == "search":
        if know.evaluate_for is not None:
            return know.evaluate_for
        plain = know.evaluate
        return lambda player: plain
    found = know.evaluations.get(name)
    if found is None:
        have = ", ".join(sorted(know.evaluations)) or "none"
        raise ConfigError("bot", f"this game has no {name!r} evaluation (it has: {have})")
    return found


def parse_settings(parts: list[str]) -> dict[str, Any]:
    """`key=value` search settings of a spec (`SPEC_SETTINGS`, and `eval=NAME` of `EVALUATIONS`), as MctsBot
    arguments; ConfigError otherwise."""
    out: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.strip().partition("=")
        if key == "eval" and sep:
            if value not in EVALUATIONS:
                raise ConfigError("bot", f"mcts setting {part!r}: use eval={' or eval='.join(EVALUATIONS)}")
            out["evaluation"] = value
            continue
        if not sep or key not in SPEC_SETTINGS:
            raise ConfigError(
                "bot", f"mcts setting {part!r}: use {', '.join(k + '=…' for k in (*SPEC_SETTINGS, 'eval'))}"
            )
        name, kind, high = SPEC_SETTINGS[key]
        try:
            v = kind(value)
        except ValueError:
            raise ConfigError("bot", f"mcts setting {part!r}: {value!r} is not a number") from None
        if not 0 <= v <= high or (kind is int and v < 1):
            raise ConfigError("bot", f"mcts setting {part!r}: out of range (at most {high:g})")
        out[name] = v
    return out


def _factory(arg: str, seed: int) -> MctsBot:
    """`mcts:STRENGTH[:key=value…]`: a strength (`parse_strength`) and optional search settings."""
    head, *rest = arg.split(":")
    iters, limit = parse_strength(head)
    return MctsBot(seed, iterations=iters, time_limit=limit, **parse_settings(rest))


register("mcts", _factory)
