"""The rollout search: each of the root's best moves judged by playing the game out to its end.

A rollout algorithm (Tesauro and Galperin's policy improvement by Monte-Carlo simulation, 1996): the root's
legal moves are ranked by the one-ply evaluation (as the greedy bot and the tree search's prior rank them); the
`candidates` best of them, and the game's `try_first` plans (Polis: every siege), are each played out `playouts`
times from the move to the end of the game, every side then choosing by one ply on the game's evaluation (the
greedy policy, one chance draw a move), and the move whose playouts end best for the searcher is played. It
improves on its playout policy wherever that policy is consistent, and it reads the real end of the game (the
last round's scoring, a prestige loss, a capital starved) instead of a static guess of it: this is what lifts
Polis above the turn-horizon tree search, whose strength stops at its leaf evaluation
(docs/experiments/2026-11-27d-polis-rollouts.md).

Honest as the tree search is: every playout starts from a fresh *determinization* of the position (the hidden
parts resampled from what the searcher's seat sees), so the true hidden cards are never read. The candidates
share their chance: playout i of every candidate uses the same determinization seed and the same dice stream
(common random numbers), so two moves are compared on the same luck.

Budgets: `playouts` a candidate (the lab's budget: reproducible on any machine), and `time_limit` seconds a
move; playouts run in rounds (one playout of every candidate a round) and a round is begun only while time is
left, so the move is reproducible whenever the playout budget binds. At least one round is always run.

With `halving`, the same total (`playouts` x `candidates` playouts) is spent by *sequential halving* (Karnin,
Koren and Somekh, "Almost optimal exploration in multi-armed bandits", ICML 2013): the root's moves are widened
with the budget (the best `playouts x candidates / 4` of the one-ply ranking, at least `candidates`, at most
`WIDEST`), the budget is split evenly over log2 of them phases, and after each phase the worse half (by mean
result so far) is dropped. More thought then also means more moves looked at, not only the same few judged
more surely.

With `diverse`, the moves are taken from the one-ply ranking kind by kind: the best move of each kind of action
first (in the order of their ranks), then the second best of each, and so on. One ply ranks alike moves alike, so
its best six can be six versions of one move (Polis: the proxenos to six poleis) while a move whose worth shows
only turns later (an army marched towards a siege) ranks twelfth; played out, such a move often wins far more
often than any of the six (docs/experiments/2026-11-27e-rollout-candidates.md) - though not, measured in games,
against a real opponent (docs/experiments/2026-11-27f-budget-curves.md).

With `screen=K`, every root move (the best `WIDEST` by one ply) is first played `SCREEN_ROUNDS` times for K
decisions only (both sides by the greedy policy, the same luck for every move) and valued there by the game's
evaluation; the moves are then ranked by that value instead of one ply, and the search goes on as before. A
short look ahead is cheaper and less noisy than a playout's win or loss, and it sees what one ply cannot: a
march's worth a turn later. Measured, it plays worse than the one-ply ranking (40.7% of 59 games against
`mcts:hard`: docs/experiments/2026-11-27f-budget-curves.md); no level uses it.

With `eval=NAME`, the game's evaluation of that name ranks the root and chooses the playouts' moves. `eval=search`
(the tree search's own evaluation for the side to move: at Polis its tuned weights, Athens' own set) is what
`mcts:hard` played at Polis until session 31 (its tree search over full playouts plays those playouts by the same
policy): a playout policy about 200 Elo above greedy at greedy's cost (the tree search at one
iteration is that one ply: docs/experiments/2026-11-28-spqr-levels-and-polis-policies.md), and a rollout search
is as good as its playout policy (docs/experiments/2026-11-27f-budget-curves.md): with it the search beat the plain
one in 58.6% of 58 Classic games and 67.0% of 50 Diceless ones, at the same cost or less
(docs/experiments/2026-11-29b-search-playouts.md).

With `replies=K`, each candidate is judged by its worst answer instead of its mean: the opponent's K best first
replies by one ply after it (found on one determinization) are each played out `playouts` times after the move, on
the round's shared luck, and the candidate's value is the lowest of its replies' mean results (max-min over one
ply of replies, playouts below). A greedy playout never answers a move its one ply does not see coming, so a plain
rollout search overrates moves that pay only when unanswered; this asks whether a real reply exists. It costs K
times the playouts; not with `halving`.

With `margin=W`, W percent of a playout's value is its final score margin (through tanh, `value`); with `komi=W`,
its margin over the mean margin of all the decision's playouts (dynamic komi, `centred`), so that where every move
wins or loses nearly every playout they are told apart where the tanh is steep."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from hegemon.ai.base import decision, register
from hegemon.ai.games import knowledge
from hegemon.ai.mcts import EVALUATIONS, MctsBot, named_evaluation
from hegemon.ai.search import PLAYOUT_LIMIT, one_ply_values, policy, settle
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError
from hegemon.core.game import CHANCE, TERMINAL, PlayerId, State, Termination
from hegemon.core.play import sample_chance
from hegemon.core.roles import BotRole

WIDEST = 64
"""The most root moves sequential halving starts from."""

SCREEN_ROUNDS = 2
"""Short playouts of every root move with `screen` (each on its own shared luck)."""

MARGIN_SCALE = 5.0
"""Final-score points of margin at which `margin`'s share of a playout's value is tanh(1) (76%) of the way from
even to all (Polis: a game between the search bots ends about 5 points apart, within 15)."""


class RolloutBot:
    """Flat Monte-Carlo over the root's best moves with greedy playouts to the end (module text).

    `playouts`: playouts a candidate; `candidates`: how many of the one-ply ranking's best moves are played out
    (the game's `try_first` moves are added); `prior_samples`: chance draws a move for that ranking;
    `time_limit`: seconds a move (None: the playout budget only); `halving`: spend the budget by sequential
    halving over a root widened with it; `diverse`: take the candidates kind by kind; `policy_iterations`: the
    playouts' moves by the tree search at that many iterations instead of the greedy policy (0); `screen`:
    rank the root by short playouts of that many decisions instead of one ply (0: off); `noise`: the playouts'
    moves that often (percent) one of the `NOISE_TOP` best by one ply, drawn evenly; `replies`: judge each
    candidate by its worst of the opponent's that many best first replies (module text); `evaluation`: the game's
    evaluation of that name (`BotRole.evaluations`) ranks the root and chooses the playouts' moves (a playout's
    end is valued as before); `margin`: that share (percent) of a playout's value is its final score margin
    (`value`; 0: its result alone); `komi`: that share its margin over the decision's mean margin (`centred`)."""

    name = "rollout"

    def __init__(
        self,
        seed: int = 0,
        playouts: int = 8,
        candidates: int = 6,
        time_limit: float | None = None,
        prior_samples: int = 4,
        halving: bool = False,
        diverse: bool = False,
        policy_iterations: int = 0,
        screen: int = 0,
        noise: int = 0,
        replies: int = 0,
        evaluation: str | None = None,
        margin: int = 0,
        komi: int = 0,
    ) -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.candidates = candidates
        self.time_limit = time_limit
        self.prior_samples = prior_samples
        self.halving = halving
        self.diverse = diverse
        self.policy_iterations = policy_iterations
        self.screen = screen
        self.noise = noise
        self.replies = replies
        # the game's evaluation by name (`eval=ranked`) for the root's ranking and the playouts' moves, else its own
        self.evaluation = evaluation
        # the share (percent) of a playout's value its final score margin makes (`value`)
        self.margin = margin
        # the share (percent) of a playout's value its margin over the decision's mean margin makes (`centred`)
        self.komi = komi
        self.last_komi = 0.0
        self.last_replies: dict[Action, list[Action]] = {}
        self.last_screened = 0
        self.last_playouts = 0
        self.last_rounds = 0
        self.last_values: dict[Action, float] = {}

    def chooser(self, know: BotRole, player: PlayerId) -> Callable[[Any], list[float]] | None:
        """The evaluation `player`'s one-ply choices use: the named one (`evaluation`), else the game's (None)."""
        if self.evaluation is None:
            return None
        return named_evaluation(know, self.evaluation)(player)

    def choose(self, state: State, player: PlayerId) -> Action:
        actions = decision(state, player)
        if len(actions) == 1:
            return actions[0]
        know = knowledge(state)
        # the root's sub-choices (how many units a move takes) are candidates like any move, as the tree search
        # has them; inside the playouts the game's defaults settle them
        ranked = self.ranked(state, player, know, actions)
        self.last_screened = 0
        if self.screen:
            ranked = self.screened(state, player, know, ranked)
        if self.diverse:
            ranked = by_kind(ranked)
        if self.halving:
            return self.halve(state, player, know, ranked)
        keep = shortlist(ranked, self.candidates, know)
        if len(keep) == 1:
            return keep[0]
        if self.replies:
            return self.against_replies(state, player, know, keep)
        deadline = None if not self.time_limit else time.perf_counter() + self.time_limit
        totals = dict.fromkeys(keep, 0.0)
        ends: dict[Action, list[tuple[float, float | None]]] = {a: [] for a in keep}
        rounds = 0
        while rounds < self.playouts:
            if rounds and deadline is not None and time.perf_counter() >= deadline:
                break
            self.play_round(state, player, know, keep, totals, ends if self.komi else None)
            rounds += 1
        self.last_rounds = rounds
        self.last_playouts = rounds * len(keep)
        if self.komi:
            totals = self.centred(ends)
        self.last_values = {a: totals[a] / rounds for a in keep}
        # ties go to the better one-ply rank (`keep` is in rank order and max keeps the first)
        return max(keep, key=lambda a: self.last_values[a])

    def halve(self, state: State, player: PlayerId, know: BotRole, ranked: list[Action]) -> Action:
        """Sequential halving over the best of `ranked` (widened with the budget) and every `try_first` move."""
        budget = self.playouts * self.candidates
        width = min(WIDEST, max(self.candidates, budget // 4))
        alive = shortlist(ranked, width, know)
        if len(alive) == 1:
            return alive[0]
        order = {a: i for i, a in enumerate(alive)}
        phases = max(1, math.ceil(math.log2(len(alive))))
        start = time.perf_counter()
        totals = dict.fromkeys(alive, 0.0)
        counts = dict.fromkeys(alive, 0)
        rounds = playouts = 0
        for phase in range(phases):
            deadline = None if not self.time_limit else start + self.time_limit * (phase + 1) / phases
            cap = max(1, budget // (len(alive) * phases))
            for r in range(cap):
                if r and deadline is not None and time.perf_counter() >= deadline:
                    break
                self.play_round(state, player, know, alive, totals)
                for a in alive:
                    counts[a] += 1
                rounds += 1
                playouts += len(alive)
            if len(alive) > 1:
                # the better half by mean result, ties to the better one-ply rank
                best = sorted(alive, key=lambda a: (-totals[a] / counts[a], order[a]))
                alive = sorted(best[: math.ceil(len(alive) / 2)], key=order.__getitem__)
        self.last_rounds = rounds
        self.last_playouts = playouts
        self.last_values = {a: totals[a] / counts[a] for a in totals}
        return max(alive, key=lambda a: (self.last_values[a], -order[a]))

    def against_replies(self, state: State, player: PlayerId, know: BotRole, keep: list[Action]) -> Action:
        """Each of `keep` judged by its worst answer: the opponent's `replies` best first replies by one ply (on
        one determinization) each played out `playouts` times after the move, all on the round's shared luck, and
        the move whose worst reply's mean result is best played (a move after which the game ends by its plain
        playouts)."""
        base = know.determinize(state, player, self.rng)
        answers = {a: self.reply_set(base, player, know, a) for a in keep}
        self.last_replies = {a: [b for b in bs if b is not None] for a, bs in answers.items()}
        deadline = None if not self.time_limit else time.perf_counter() + self.time_limit
        totals = {(a, b): 0.0 for a in keep for b in answers[a]}
        rounds = 0
        while rounds < self.playouts:
            if rounds and deadline is not None and time.perf_counter() >= deadline:
                break
            seed = self.rng.getrandbits(64)
            for a, b in totals:
                end = self.play_out(state, player, know, a, random.Random(seed), reply=b)
                totals[a, b] += self.value(end, player, know)
            rounds += 1
        self.last_rounds = rounds
        self.last_playouts = rounds * len(totals)
        self.last_values = {a: min(totals[a, b] for b in answers[a]) / rounds for a in keep}
        return max(keep, key=lambda a: self.last_values[a])

    def reply_set(self, base: Any, player: PlayerId, know: BotRole, action: Action) -> list[Action | None]:
        """The opponent's `replies` best first real choices after `action` on the determinization `base` (chance
        drawn on the search's generator, default sub-choices taken, the searcher's own further choices by the
        playout policy), best first by one ply; [None] when the game ends first."""
        c = base.clone()
        c.apply(action)
        for _ in range(PLAYOUT_LIMIT):
            settle(c, know, self.rng)
            p = c.current_player()
            if p in (TERMINAL, CHANCE):
                return [None]
            if p == player:  # the searcher's own further choices, as its playouts make them
                c.apply(policy(c, p, know, self.rng, 0, self.chooser(know, p)))
                continue
            legal = c.legal_actions()
            if len(legal) > 1:
                values = one_ply_values(
                    c, p, know, self.rng, self.prior_samples, evaluate=self.chooser(know, p)
                )
                values.sort(key=lambda av: -av[1])
                return [a for a, _ in values[: self.replies]]
            c.apply(legal[0])
        return [None]

    def play_round(
        self,
        state: State,
        player: PlayerId,
        know: BotRole,
        moves: list[Action],
        totals: dict[Action, float],
        ends: dict[Action, list[tuple[float, float | None]]] | None = None,
    ) -> None:
        """One playout of each of `moves`, all on one seed (common random numbers), added to `totals`; with
        `ends` (`komi`), each playout's result and final margin appended there instead, to be valued once the
        decision's playouts are all in (`centred`)."""
        seed = self.rng.getrandbits(64)
        for a in moves:
            if ends is None:
                totals[a] += self.playout(state, player, know, a, random.Random(seed))
                continue
            end = self.play_out(state, player, know, a, random.Random(seed))
            ends[a].append((float(know.evaluate(end)[player]), final_margin(end, player)))

    def ranked(self, state: State, player: PlayerId, know: BotRole, actions: list[Action]) -> list[Action]:
        """`actions` best first by their one-ply value on a determinization (the greedy bot's ranking)."""
        base = know.determinize(state, player, self.rng)
        chooser = self.chooser(know, player)
        seen = dict(one_ply_values(base, player, know, self.rng, self.prior_samples, evaluate=chooser))
        low = min(seen.values(), default=0.0)
        return sorted(actions, key=lambda a: -seen.get(a, low))

    def screened(self, state: State, player: PlayerId, know: BotRole, ranked: list[Action]) -> list[Action]:
        """The best `WIDEST` of `ranked` (and the rest after them) in the order of their short playouts' mean
        value (`screen` decisions each, `SCREEN_ROUNDS` rounds on shared luck); ties keep the one-ply order."""
        head = ranked[:WIDEST]
        totals = dict.fromkeys(head, 0.0)
        for _ in range(SCREEN_ROUNDS):
            seed = self.rng.getrandbits(64)
            for a in head:
                end = self.play_out(state, player, know, a, random.Random(seed), limit=self.screen)
                totals[a] += float(know.evaluate(end)[player])
        self.last_screened = SCREEN_ROUNDS * len(head)
        order = {a: i for i, a in enumerate(head)}
        return sorted(head, key=lambda a: (-totals[a], order[a])) + ranked[WIDEST:]

    def playout(
        self, state: State, player: PlayerId, know: BotRole, action: Action, rng: random.Random
    ) -> float:
        """`player`'s result of one game played out from `action` on a fresh determinization of `state`: 1 a
        win, 0 a loss, a share for a tie (the evaluation if the playout is cut at `PLAYOUT_LIMIT`)."""
        return self.value(self.play_out(state, player, know, action, rng), player, know)

    def value(self, end: Any, player: PlayerId, know: BotRole) -> float:
        """`player`'s value of a playout's end: its result (1 a win, 0 a loss, a share for a tie; the evaluation
        where the playout was cut), and with `margin` (W percent) that much of it the final score's margin instead:
        (1 - W) x result + W x (1 + tanh(margin / MARGIN_SCALE)) / 2, where the game ended by its last round (an
        elimination's or a prestige loss's playout is its result alone). A playout is then worth more the more it
        wins by, and a lost one less the more it loses by: where every candidate wins (or loses) nearly every
        playout, the margin still tells them apart."""
        result = float(know.evaluate(end)[player])
        if not self.margin:
            return result
        m = final_margin(end, player)
        if m is None:
            return result
        w = self.margin / 100.0
        return (1.0 - w) * result + w * 0.5 * (1.0 + math.tanh(m / MARGIN_SCALE))

    def centred(self, ends: dict[Action, list[tuple[float, float | None]]]) -> dict[Action, float]:
        """Each move's summed playout values with `komi` (W percent): (1 - W) x result + W x (1 + tanh((margin -
        k) / MARGIN_SCALE)) / 2 for a playout that reached the last round, its result alone otherwise, where k
        (`last_komi`) is the mean margin of all the decision's playouts that reached the last round (every move
        measured against the same bar). Dynamic komi (Baudis, "Balancing MCTS by dynamically adjusting the komi
        value", ICGA Journal 34, 2011): where the searcher wins (or loses) nearly every playout, its moves are told
        apart by whether they end above or below its usual margin, where the tanh is steepest, and not where it
        is flat."""
        margins = [m for runs in ends.values() for _, m in runs if m is not None]
        k = sum(margins) / len(margins) if margins else 0.0
        self.last_komi = k
        w = self.komi / 100.0
        return {
            a: sum(
                r if m is None else (1.0 - w) * r + w * 0.5 * (1.0 + math.tanh((m - k) / MARGIN_SCALE))
                for r, m in runs
            )
            for a, runs in ends.items()
        }

    def play_out(
        self,
        state: State,
        player: PlayerId,
        know: BotRole,
        action: Action,
        rng: random.Random,
        limit: int = PLAYOUT_LIMIT,
        reply: Action | None = None,
    ) -> Any:
        """The position at the end of one playout (`playout`): the game's end, or where `PLAYOUT_LIMIT` steps or
        `limit` decisions cut it. `reply`: the opponent's first real choice after `action` (a decision of the
        opponent with more than one legal action and no default), where it is legal there; the playout's policy
        otherwise."""
        d: Any = know.determinize(state, player, rng)
        d.apply(action)
        searcher = None
        if self.policy_iterations:
            # the playouts' moves by the tree search (mcts:normal at 40), on the playout's own generator
            searcher = MctsBot(0, iterations=self.policy_iterations, time_limit=None)
            searcher.rng = rng
        made = 0
        for _ in range(PLAYOUT_LIMIT):
            if made >= limit:
                break
            p = d.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                d.apply(sample_chance(d, rng))
                continue
            made += 1
            if reply is not None and p != player and know.auto_action(d, p) is None:
                legal = d.legal_actions()
                if len(legal) > 1:
                    if reply in legal:
                        d.apply(reply)
                        reply = None
                        continue
                    reply = None
            if searcher is None:
                d.apply(policy(d, p, know, rng, self.noise, self.chooser(know, p)))
                continue
            auto = know.auto_action(d, p)
            d.apply(auto if auto is not None else searcher.choose(d, p))
        return d


def final_margin(end: Any, player: PlayerId) -> float | None:
    """`player`'s final score less the best other's where `end` is a game ended by its last round; None where it
    is not over, or ended otherwise (an elimination, a prestige loss)."""
    out = end.outcome() if end.current_player() == TERMINAL else None
    if out is None or out.termination is not Termination.END_OF_ROUNDS or len(out.scores) < 2:
        return None
    return float(out.scores[player] - max(s for p, s in enumerate(out.scores) if p != player))


def shortlist(ranked: list[Action], width: int, know: BotRole) -> list[Action]:
    """The first `width` of `ranked` and every later `try_first` move (the game's plans always tried)."""
    keep = ranked[:width]
    if know.try_first is not None:
        keep += [a for a in ranked[width:] if know.try_first(a)]
    return keep


def by_kind(ranked: list[Action]) -> list[Action]:
    """`ranked` reordered kind by kind: the best of each kind of action (in rank order), then the second best of
    each, and so on (every move kept, each kind in its own rank order)."""
    seen: dict[str, int] = {}
    tiers: list[list[Action]] = []
    for a in ranked:
        n = seen.get(a.kind, 0)
        seen[a.kind] = n + 1
        if n == len(tiers):
            tiers.append([])
        tiers[n].append(a)
    return [a for tier in tiers for a in tier]


SPEC_SETTINGS: dict[str, tuple[str, int]] = {
    "candidates": ("candidates", 64),
    "samples": ("prior_samples", 16),
    "halving": ("halving", 1),
    "diverse": ("diverse", 1),
    "policy": ("policy_iterations", 400),
    "screen": ("screen", 200),
    "noise": ("noise", 50),
    "replies": ("replies", 8),
    "margin": ("margin", 50),
    "komi": ("komi", 50),
}
"""Settings a `rollout:N:key=value` spec may give: spec key -> (RolloutBot argument, the largest value)."""

FLAGS = frozenset(("halving", "diverse"))
"""Settings that are on (1) or off (0)."""

MAX_PLAYOUTS = 4096
"""The most playouts a candidate a spec may ask for (a spec is read from the lab's command line)."""


def parse_spec(arg: str) -> dict[str, Any]:
    """`N[@SECONDS][:candidates=K][:samples=S][:halving=1][:diverse=1][:policy=I][:screen=D][:noise=P][:replies=K][:margin=W][:komi=W][:eval=NAME]` as RolloutBot arguments; ConfigError otherwise."""
    head, *rest = arg.split(":") if arg.strip() else ["8"]
    count, _, limit = head.strip().partition("@")
    try:
        out: dict[str, Any] = {"playouts": int(count), "time_limit": float(limit) if limit else None}
    except ValueError:
        raise ConfigError("bot", f"rollout budget {head!r}: use N (playouts a move) or N@SECONDS") from None
    if not 1 <= out["playouts"] <= MAX_PLAYOUTS:
        raise ConfigError("bot", f"rollout budget {head!r}: between 1 and {MAX_PLAYOUTS} playouts a move")
    if out["time_limit"] is not None and not out["time_limit"] > 0:
        out["time_limit"] = None
    for part in rest:
        key, sep, value = part.strip().partition("=")
        if key == "eval" and sep:
            if value not in EVALUATIONS:
                raise ConfigError(
                    "bot", f"rollout setting {part!r}: use eval={' or eval='.join(EVALUATIONS)}"
                )
            out["evaluation"] = value
            continue
        if not sep or key not in SPEC_SETTINGS:
            raise ConfigError(
                "bot",
                f"rollout setting {part!r}: use {', '.join(k + '=N' for k in SPEC_SETTINGS)} or eval=NAME",
            )
        name, high = SPEC_SETTINGS[key]
        try:
            v = int(value)
        except ValueError:
            raise ConfigError("bot", f"rollout setting {part!r}: {value!r} is not a whole number") from None
        low = (
            0
            if name in FLAGS or name in ("policy_iterations", "screen", "noise", "replies", "margin", "komi")
            else 1
        )
        if not low <= v <= high:
            raise ConfigError("bot", f"rollout setting {part!r}: between {low} and {high}")
        out[name] = bool(v) if name in FLAGS else v
    if out.get("halving") and out.get("replies"):
        raise ConfigError("bot", f"rollout spec {arg!r}: halving and replies do not go together")
    if out.get("komi") and (out.get("halving") or out.get("replies") or out.get("margin")):
        raise ConfigError("bot", f"rollout spec {arg!r}: komi goes with neither halving, replies nor margin")
    return out


def _factory(arg: str, seed: int) -> RolloutBot:
    """`rollout[:N[@SECONDS]][:candidates=K][:samples=S][:halving=1][:diverse=1][:policy=I][:screen=D][:noise=P][:replies=K][:margin=W][:komi=W][:eval=NAME]` (`parse_spec`)."""
    return RolloutBot(seed, **parse_spec(arg))


register("rollout", _factory)
