"""Train the learned S.P.Q.RisiKo! evaluation (`src/hegemon/ai/games/spqr_value.json`; issue 30 item 3).

1. Self-play: `--games` games for each rule set (house rules 1.2, the published 2005 rules) and each number of
   players (3, 4, 5), every seat played by `--bots`, each decision with probability `--explore` a uniformly
   random legal action instead (so the data shows where a move the bot would not make leads); every draw comes
   from generators seeded by (seed, game), so the games are the same on any number of workers.
2. Positions: wherever a player's turn begins (where the search values its leaves: the end of the turn before),
   every player's inputs (`spqr_value.inputs`), labelled with the game's winners (a shared first place split).
3. Fit: the conditional logit (a softmax over the players of weights . inputs) by L-BFGS on the mean log loss
   with an L2 penalty, on standardised inputs, on 90% of the games; the other 10% (whole games) are held out and
   the held-out log loss is reported beside the hand evaluation's (`spqrisiko.evaluate`) and the even split's.
4. The weights (in the inputs' own units) are written with the seed, the data size, the held-out figures and
   this command.

Use (the shipped weights: 1,800 games, about 25 CPU minutes on the compiled engine, seconds for the fit):
    python scripts/train_spqr_value.py --games 300 --seed 40 --jobs 2
    python scripts/train_spqr_value.py --check     # play and fit again from the shipped file's own settings,
                                                    # and say whether the weights come out the same
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
from hegemon.ai.games import spqr_value as sv
from hegemon.ai.games import spqrisiko as know
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.games import get_game
from hegemon.lab.fitting import check_or_write, masked_softmax
from hegemon.lab.fitting import digest as fitting_digest
from hegemon.lab.sweep import untimed

RULES = ("house-1.2", "official")
PLAYERS = (3, 4, 5)
DIGITS = 6  # the weights are stored rounded to this many decimals
MAX_ROUNDS = 60  # as the lab's self-play (`selfplay_defaults`)


def play_game(task: tuple[int, int, str, int, str, float]) -> dict[str, Any]:
    """One self-play game: the inputs of every player at the start of every turn, the hand evaluation there, and
    each player's share of the result."""
    index, seed, rules, players, bots, explore = task
    g = get_game("spqrisiko")
    opts = g.parse_options(
        {"rules": rules, "players": players, "random_deal": True, "max_rounds": MAX_ROUNDS}
    )
    st: Any = g.new_game(opts, derive_seed("spqr-value-game", seed, index))
    agents = [make_bot(bots, derive_seed("spqr-value-bot", seed, index, seat)) for seat in range(players)]
    untimed(agents)  # iterations only, as in the lab
    chance = random.Random(derive_seed("spqr-value-chance", seed, index))
    wander = random.Random(derive_seed("spqr-value-wander", seed, index))
    rows: list[list[list[float] | None]] = []
    hand: list[list[float]] = []
    mover = None
    while (p := st.current_player()) != TERMINAL:
        if p == CHANCE:
            st.apply(sample_chance(st, chance))
            continue
        if (st.round, st.turn) != mover:  # a turn begins: the last one's end, where a search leaf is valued
            mover = (st.round, st.turn)
            rows.append(sv.inputs(st))
            hand.append(know.evaluate(st))
        if wander.random() < explore:
            legal = st.legal_actions()
            st.apply(legal[int(wander.random() * len(legal))])
        else:
            st.apply(agents[p].choose(st, p))
    winners = st.outcome().winners
    share = [1.0 / len(winners) if q in winners else 0.0 for q in range(players)]
    return {"rows": rows, "hand": hand, "y": share}


def self_play(games: int, seed: int, jobs: int, bots: str, explore: float) -> list[dict[str, Any]]:
    """`games` games a rule set and number of players, in a fixed order."""
    tasks = [(i, seed, r, n, bots, explore) for i, (r, n, _) in
             enumerate(itertools.product(RULES, PLAYERS, range(games)))]  # fmt: skip
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return pool.map(play_game, tasks, chunksize=2)
    return [play_game(t) for t in tasks]


def tensors(done: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Positions padded to five players: inputs (positions x 5 x inputs), who is in (mask), the result shares,
    the hand evaluation and each position's game."""
    k = len(sv.INPUTS)
    m = sum(len(d["rows"]) for d in done)
    x = np.zeros((m, 5, k))
    mask = np.zeros((m, 5), dtype=bool)
    y = np.zeros((m, 5))
    hand = np.zeros((m, 5))
    gid = np.zeros(m, dtype=int)
    at = 0
    for g, d in enumerate(done):
        for rows, h in zip(d["rows"], d["hand"], strict=True):
            for q, row in enumerate(rows):
                if row is not None:
                    x[at, q] = row
                    mask[at, q] = True
            y[at, : len(d["y"])] = d["y"]
            hand[at, : len(h)] = h
            gid[at] = g
            at += 1
    return {"x": x, "mask": mask, "y": y, "hand": hand, "gid": gid}


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean over positions of -sum(y log p) (the cross-entropy of the result shares)."""
    return float(-np.mean(np.sum(y * np.log(np.clip(p, 1e-12, 1.0)), axis=1)))


def chances(x: np.ndarray, mask: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each position's chance for each player (the conditional logit's softmax over the players who are in)."""
    return masked_softmax(x @ w, mask)


def fit(x: np.ndarray, mask: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """The weights (in the inputs' units) maximising the likelihood of the results, on inputs standardised by the
    training positions' spread (the L2 penalty then weighs every input alike)."""
    k = x.shape[2]
    live = x[mask]
    scale = live.std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale

    def loss(v: np.ndarray) -> tuple[float, np.ndarray]:
        p = chances(z, mask, v)
        n = len(z)
        value = log_loss(p, y) + l2 * float(v @ v)
        # d/dv of -sum_i y_i log p_i = sum_i (p_i * sum(y) - y_i) z_i
        coef = p * y.sum(axis=1, keepdims=True) - y
        grad = np.einsum("mq,mqk->k", coef, z) / n + 2 * l2 * v
        return value, grad

    res = minimize(loss, np.zeros(k), jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    w: np.ndarray = res.x / scale
    return w


def digest(t: dict[str, np.ndarray]) -> str:
    return fitting_digest(t, ("x", "mask", "y"))


def train(games: int, seed: int, jobs: int, bots: str, explore: float, l2: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    done = self_play(games, seed, jobs, bots, explore)
    played = time.perf_counter() - t0
    t = tensors(done)
    held = t["gid"] % 10 == 9  # every tenth game held out whole
    w = fit(t["x"][~held], t["mask"][~held], t["y"][~held], l2)
    w = np.round(w, DIGITS)
    x, mask, y = t["x"][held], t["mask"][held], t["y"][held]
    even = mask / np.maximum(mask.sum(axis=1, keepdims=True), 1)
    meta = {
        "command": f"python scripts/train_spqr_value.py --games {games} --seed {seed} --jobs 2"
        + (f" --bots {bots}" if bots != DEFAULTS["bots"] else "")
        + (f" --explore {explore}" if explore != DEFAULTS["explore"] else "")
        + (f" --l2 {l2}" if l2 != DEFAULTS["l2"] else ""),
        "seed": seed,
        "games": len(done),
        "games_each": games,
        "bots": bots,
        "explore": explore,
        "l2": l2,
        "rules": list(RULES),
        "players": list(PLAYERS),
        "positions": len(t["x"]),
        "data_sha256": digest(t),
        "held_out_games": len(set(t["gid"][held].tolist())),
        "held_out_log_loss": None
        if not held.any()
        else {
            "model": round(log_loss(chances(x, mask, w), y), 4),
            "hand": round(log_loss(t["hand"][held], y), 4),
            "even": round(log_loss(even, y), 4),
        },
        "self_play_seconds": round(played, 1),
    }
    return {"inputs": list(sv.INPUTS), "weights": [float(v) for v in w], "meta": meta}


DEFAULTS: dict[str, Any] = {"games": 300, "seed": 40, "bots": "mcts:10", "explore": 0.03, "l2": 1e-4}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=DEFAULTS["games"], help="games a rule set and player count")
    ap.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bots", default=DEFAULTS["bots"], help="the self-play bot (every seat)")
    ap.add_argument("--explore", type=float, default=DEFAULTS["explore"], help="chance of a random move")
    ap.add_argument("--l2", type=float, default=DEFAULTS["l2"])
    ap.add_argument("--out", type=Path, default=sv.WEIGHTS)
    ap.add_argument("--check", action="store_true", help="retrain from --out's settings and compare")
    a = ap.parse_args(argv)
    return check_or_write(
        a.out,
        a.check,
        lambda: train(a.games, a.seed, a.jobs, a.bots, a.explore, a.l2),
        lambda m: train(m["games_each"], m["seed"], a.jobs, m["bots"], m["explore"], m["l2"]),
    )


if __name__ == "__main__":
    sys.exit(main())
