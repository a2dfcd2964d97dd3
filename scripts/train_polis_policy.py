"""Train the learned Polis move ranking (`src/hegemon/ai/games/polis_policy.json`; issue 30 item 2): the rollout
search's playout policy, fitted to what the rollout search itself chose.

A rollout search improves on its playout policy (Tesauro and Galperin, 1996): `rollout:8` (Polis `mcts:hard` when
this was written) beats greedy, its playout policy, in 90% of Classic games. Fitting a one-ply chooser to the
rollout search's choices (approximate policy iteration: Lagoudakis and Parr, 2003; Bertsekas and Tsitsiklis,
"Neuro-Dynamic Programming", 1996, ch. 6) gives a better playout policy, and a rollout search over better playouts
plays better.

1. Self-play: `--games` games under each siege rule, both sides `--bots` (the rollout search, untimed), every
   draw from generators seeded by (seed, game): the same games on any number of workers.
2. Decisions: wherever the search played out two or more candidate moves, each candidate's inputs
   (`polis_policy.inputs`: both sides' evaluation terms after the move and one chance draw, on a determinization
   of the mover's view, as the playout policy sees a move) and its playouts' mean result.
3. Fit: a conditional logit over each decision's candidates (McFadden, 1974) of the hand evaluation's logit
   (free coefficient) plus a linear correction on the standardised inputs (L2 penalty: with little data the
   model stays the hand evaluation), on the mean log loss of the search's choice (the candidates with the best
   mean result, a tie split evenly; decisions where every candidate scored alike teach nothing and are left
   out), 90% of the games; the other 10% (whole games) are held out: the choice's log loss and how often the
   model's first candidate is the search's choice, beside the hand evaluation alone.
4. The weights (folded into one vector on the inputs' own units) are written with the seed, the data size, the
   held-out figures and this command.

Use:
    python scripts/train_polis_policy.py --games 25 --seed 50 --jobs 2          # the shipped weights (~45 CPU minutes)
    python scripts/train_polis_policy.py --check                                 # again, compared
    python scripts/train_polis_policy.py --games 25 --seed 50 --data d.npz      # keep the decisions to refit
The lab extra (numpy, scipy) is needed here, never at play time."""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from hegemon.ai import make_bot
from hegemon.ai.games import polis as know
from hegemon.ai.games import polis_policy as pp
from hegemon.ai.rollout import RolloutBot
from hegemon.ai.search import settle
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.games import get_game
from hegemon.games.polis.options import SIEGE_RULES
from hegemon.lab.fitting import check_or_write, masked_softmax
from hegemon.lab.fitting import digest as fitting_digest
from hegemon.lab.sweep import untimed

DIGITS = 6  # the weights are stored rounded to this many decimals
MAX_ACTIONS = 4000  # a safety bound on a game's decisions (Polis games end within a few hundred)


def play_game(task: tuple[int, int, str, str]) -> dict[str, Any]:
    """One self-play game: at each searched decision, each candidate's inputs and mean playout result."""
    index, seed, rule, bots = task
    g = get_game("polis")
    st: Any = g.new_game(g.parse_options({"siege": rule}), derive_seed("polis-policy-game", seed, index))
    agents = [make_bot(bots, derive_seed("polis-policy-bot", seed, index, side)) for side in (0, 1)]
    untimed(agents)  # playouts only, as in the lab
    chance = random.Random(derive_seed("polis-policy-chance", seed, index))
    look = random.Random(derive_seed("polis-policy-look", seed, index))
    decisions: list[dict[str, Any]] = []
    for _ in range(MAX_ACTIONS):
        p = st.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE:
            st.apply(sample_chance(st, chance))
            continue
        bot = agents[p]
        if isinstance(bot, RolloutBot):
            bot.last_values = {}
        action = bot.choose(st, p)
        values = getattr(bot, "last_values", {})
        if len(values) >= 2:
            base = know.determinize(st, p, look)
            rows = []
            for a in values:
                c = base.clone()
                c.apply(a)
                settle(c, know.BOTS, look, p)
                rows.append(pp.inputs(c, p))
            decisions.append({"x": rows, "v": list(values.values()), "rule": rule})
        st.apply(action)
    return {"decisions": decisions, "actions": len(st.history) if hasattr(st, "history") else None}


def self_play(games: int, seed: int, jobs: int, bots: str) -> list[dict[str, Any]]:
    """`games` games a siege rule, in a fixed order."""
    tasks = [(i, seed, r, bots) for i, (r, _) in enumerate(itertools.product(SIEGE_RULES, range(games)))]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return pool.map(play_game, tasks, chunksize=1)
    return [play_game(t) for t in tasks]


def tensors(done: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Decisions padded to the most candidates: inputs (decisions x candidates x inputs), which are real (mask),
    mean playout results, each decision's game."""
    k = len(pp.INPUTS)
    rows = [(g, d) for g, game in enumerate(done) for d in game["decisions"]]
    width = max((len(d["v"]) for _, d in rows), default=1)
    m = len(rows)
    x = np.zeros((m, width, k))
    mask = np.zeros((m, width), dtype=bool)
    v = np.zeros((m, width))
    gid = np.zeros(m, dtype=int)
    for i, (g, d) in enumerate(rows):
        n = len(d["v"])
        x[i, :n] = d["x"]
        mask[i, :n] = True
        v[i, :n] = d["v"]
        gid[i] = g
    return {"x": x, "mask": mask, "v": v, "gid": gid}


def choices(v: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The search's choice as weights over the candidates (the best mean result, ties split), and which
    decisions teach something (not every candidate alike)."""
    vv = np.where(mask, v, -np.inf)
    top = vv.max(axis=1, keepdims=True)
    best = (vv >= top - 1e-12) & mask
    q = best / best.sum(axis=1, keepdims=True)
    low = np.where(mask, v, np.inf).min(axis=1)
    return q, low < top[:, 0] - 1e-12


def hand_logit(x: np.ndarray) -> np.ndarray:
    """The hand evaluation's logit for the mover (`know.evaluate`'s, greedy's and the playouts') from the inputs."""
    c = np.array(pp.hand_coefficients())
    return np.asarray(x @ c)


probabilities = masked_softmax
"""The conditional logit's choice probabilities of each decision's candidates."""


def choice_loss(p: np.ndarray, q: np.ndarray) -> float:
    return float(-np.mean(np.sum(q * np.log(np.clip(p, 1e-12, 1.0)), axis=1)))


def fit(x: np.ndarray, mask: np.ndarray, q: np.ndarray, l2: float, correct: bool = True) -> np.ndarray:
    """The folded weights (inputs' units): the hand logit's coefficient (free) times its coefficients plus a
    correction on the standardised inputs (L2-penalised; none when `correct` is false)."""
    k = x.shape[2]
    h = hand_logit(x)
    scale = x[mask].std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    n = len(x)

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        beta, w = theta[0], theta[1:]
        u = beta * h + (z @ w if correct else 0.0)
        p = probabilities(u, mask)
        coef = p - q  # d/du of -sum q log softmax(u)
        value = choice_loss(p, q) + l2 * float(w @ w)
        grad = np.zeros_like(theta)
        grad[0] = float(np.sum(coef * h)) / n
        if correct:
            grad[1:] = np.einsum("mc,mck->k", coef, z) / n + 2 * l2 * w
        return value, grad

    theta0 = np.zeros(k + 1)
    theta0[0] = 1.0
    res = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": 3000})
    beta, w = res.x[0], res.x[1:]
    folded: np.ndarray = beta * np.array(pp.hand_coefficients()) + (w / scale if correct else 0.0)
    return folded


def digest(t: dict[str, np.ndarray]) -> str:
    return fitting_digest(t, ("x", "mask", "v"))


def held_out(t: dict[str, np.ndarray], w: np.ndarray, hand: np.ndarray) -> dict[str, float] | None:
    """The held-out games' figures (None when too few games to hold any out)."""
    held = t["gid"] % 10 == 9
    q, useful = choices(t["v"], t["mask"])
    sel = held & useful
    if not sel.any():
        return None
    x, mask, q = t["x"][sel], t["mask"][sel], q[sel]

    def agree(weights: np.ndarray) -> float:
        u = np.where(mask, x @ weights, -np.inf)
        return float(np.mean(q[np.arange(len(u)), u.argmax(axis=1)] > 0))

    return {
        "decisions": int(sel.sum()),
        "model_log_loss": round(choice_loss(probabilities(x @ w, mask), q), 4),
        "hand_log_loss": round(choice_loss(probabilities(x @ hand, mask), q), 4),
        "even_log_loss": round(choice_loss(mask / mask.sum(axis=1, keepdims=True), q), 4),
        "model_top1": round(agree(w), 4),
        "hand_top1": round(agree(hand), 4),
    }


def train(games: int, seed: int, jobs: int, bots: str, l2: float, data: Path | None = None) -> dict[str, Any]:
    t0 = time.perf_counter()
    if data is not None and data.exists():
        loaded = np.load(data)
        t = {k: loaded[k] for k in ("x", "mask", "v", "gid")}
    else:
        t = tensors(self_play(games, seed, jobs, bots))
        if data is not None:
            np.savez_compressed(data, x=t["x"], mask=t["mask"], v=t["v"], gid=t["gid"])
    played = time.perf_counter() - t0
    q, useful = choices(t["v"], t["mask"])
    train_rows = (t["gid"] % 10 != 9) & useful
    w = np.round(fit(t["x"][train_rows], t["mask"][train_rows], q[train_rows], l2), DIGITS)
    # the hand evaluation alone, its scale fitted on the same decisions (the baseline of the held-out figures)
    hand = fit(t["x"][train_rows], t["mask"][train_rows], q[train_rows], l2, correct=False)
    meta = {
        "command": f"python scripts/train_polis_policy.py --games {games} --seed {seed} --jobs 2"
        + (f" --bots {bots}" if bots != DEFAULTS["bots"] else "")
        + (f" --l2 {l2}" if l2 != DEFAULTS["l2"] else ""),
        "seed": seed,
        "games": int(t["gid"].max()) + 1 if len(t["gid"]) else 0,
        "games_each": games,
        "bots": bots,
        "l2": l2,
        "rules": list(SIEGE_RULES),
        "decisions": len(t["x"]),
        "decisions_fitted": int(train_rows.sum()),
        "data_sha256": digest(t),
        "held_out": held_out(t, w, hand),
        "self_play_seconds": round(played, 1),
    }
    return {"inputs": list(pp.INPUTS), "weights": [float(v) for v in w], "meta": meta}


DEFAULTS: dict[str, Any] = {"games": 25, "seed": 50, "bots": "rollout:8", "l2": 1e-3}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=DEFAULTS["games"], help="games a siege rule")
    ap.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bots", default=DEFAULTS["bots"], help="the self-play bot (both sides)")
    ap.add_argument("--l2", type=float, default=DEFAULTS["l2"])
    ap.add_argument("--data", type=Path, help="keep the decisions in (or read them from) this .npz file")
    ap.add_argument("--out", type=Path, default=pp.WEIGHTS)
    ap.add_argument("--check", action="store_true", help="retrain from --out's settings and compare")
    a = ap.parse_args(argv)
    return check_or_write(
        a.out,
        a.check,
        lambda: train(a.games, a.seed, a.jobs, a.bots, a.l2, a.data),
        lambda m: train(m["games_each"], m["seed"], a.jobs, m["bots"], m["l2"]),
    )


if __name__ == "__main__":
    sys.exit(main())
