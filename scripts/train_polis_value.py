"""Train the learned Polis evaluation (`src/hegemon/ai/games/polis_value.json`; issue 30 item 3).

1. Self-play: lab comparisons of `--bots` against itself under every siege rule on each board (`--games` a
   rule and board, the lab's paired deals in both seat rotations, seeded: `hegemon lab compare` plays the same
   games from the same seed).
2. Positions: every game is replayed and a position is taken wherever the search values its leaves — at the
   start of each turn of the action phase and where an action phase ends — with the game's result for Athens
   (1 won, 0 lost, a tie ½) as its label.
3. Fit: a network of one hidden layer of tanh units plus a linear part on the standardised inputs
   (`polis_value.inputs`), by L-BFGS on the mean log loss with an L2 penalty, from a seeded start, on 90% of the
   games; the other 10% (whole games) are held out and the held-out log loss is reported beside the hand-written
   evaluation's (`know.strength` with the search's weights, its logistic scale and Athens' edge refitted on the
   training games) and a linear model's.
4. The weights are written with the seed, the data size, the held-out figures and this command.

Use (the shipped weights; about 25 CPU minutes for the games on the compiled engine, a minute for the fit):
    python scripts/train_polis_value.py --games 1000 --seed 30 --jobs 2
    python scripts/train_polis_value.py --check     # play and fit again from the shipped file's own settings,
                                                     # and say whether the weights come out the same
The lab extra (numpy, scipy) is needed here, never at play time."""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from hegemon.ai import make_bot
from hegemon.ai.games import polis_value as pv
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import GameRecord
from hegemon.games import get_game
from hegemon.games.polis.rules import common
from hegemon.lab import fitting
from hegemon.lab.run import make_sweep, read_jsonl, run_sweep

SIEGES = "siege=classic,sacrifice,diceless,diceless_sacrifice"
DIGITS = 6  # the weights are stored rounded to this many decimals


def ordered(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A lab run's records in a fixed order (the lab appends them as its workers finish)."""
    return sorted(
        records,
        key=lambda r: (r["meta"]["variant"], r["meta"]["deal"], r["meta"]["rotation"], r["meta"]["pair"]),
    )


def where_taken(st: Any) -> int:
    """`TURN_START`, `MID_TURN` or `OTHER`: where in the game a position was taken."""
    if st.phase != common.ACTION:
        return OTHER
    return MID_TURN if st.n_actions or st.pending is not None else TURN_START


def play(games: int, seed: int, jobs: int, boards: list[str], bots: str, where: Path) -> list[dict[str, Any]]:
    """The self-play records of every board, in a fixed order (the lab appends them as its workers finish)."""
    records: list[dict[str, Any]] = []
    for board in boards:
        sweep = make_sweep(
            "polis", "compare", [bots, bots], games, seed, [SIEGES], None if board == "default" else board
        )
        out = where / board
        run_sweep(sweep, out, jobs=jobs)
        records += [{**r, "board": board} for r in ordered(read_jsonl(out / "games.jsonl"))]
    return records


def explore_game(task: tuple[int, int, str, str, str, float]) -> dict[str, Any]:
    """One self-play game in which each decision is, with probability `explore`, a uniformly random legal action
    instead of the bot's (so the data shows what a move the bot would not make leads to): its positions and
    Athens' result. Every draw comes from generators seeded by (seed, index)."""
    index, seed, board, rule, bots, explore = task
    g = get_game("polis")
    st: Any = g.new_game(g.parse_options({"siege": rule, "board": None if board == "default" else board}),
                         derive_seed("explore-game", seed, index))  # fmt: skip
    players = []
    for seat in (0, 1):
        bot = make_bot(bots, derive_seed("explore-bot", seed, index, seat))
        if getattr(bot, "time_limit", None) is not None:
            bot.time_limit = None  # type: ignore[attr-defined]  # iterations only, as in the lab
        players.append(bot)
    chance = random.Random(derive_seed("explore-chance", seed, index))
    wander = random.Random(derive_seed("explore-wander", seed, index))
    xs: list[list[float]] = []
    kind: list[int] = []
    was_action = False
    while (p := st.current_player()) != TERMINAL:
        action = st.phase == common.ACTION
        if p != CHANCE or (was_action and not action):
            xs.append(pv.inputs(st))
            kind.append(where_taken(st))
        was_action = action
        if p == CHANCE:
            st.apply(sample_chance(st, chance))
        elif wander.random() < explore:
            legal = st.legal_actions()
            st.apply(legal[int(wander.random() * len(legal))])
        else:
            st.apply(players[p].choose(st, p))
    winners = st.outcome().winners
    y = (1.0 / len(winners)) if 0 in winners else 0.0
    return {"x": xs, "kind": kind, "y": y}


def explore_positions(
    games: int, seed: int, jobs: int, boards: list[str], bots: str, explore: float
) -> dict[str, np.ndarray]:
    """`games` exploring self-play games a siege rule and board (`explore_game`), as `positions` gives them."""
    rules = SIEGES.split("=")[1].split(",")
    tasks = [(i, seed, board, rule, bots, explore) for i, (board, rule, _) in
             enumerate(itertools.product(boards, rules, range(games)))]  # fmt: skip
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            done = pool.map(explore_game, tasks, chunksize=4)
    else:
        done = [explore_game(t) for t in tasks]
    xs = [row for d in done for row in d["x"]]
    x = np.array(xs)
    return {
        "x": x,
        "y": np.array([d["y"] for d in done for _ in d["x"]]),
        "gid": np.array([i for i, d in enumerate(done) for _ in d["x"]]),
        "hand": x[:, -1].copy(),
        "kind": np.array([k for d in done for k in d["kind"]]),
    }


# where a position was taken (`positions`' last column): the start of an action-phase turn, the middle of one,
# another phase
TURN_START, MID_TURN, OTHER = 0, 1, 2


def positions(records: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The inputs, Athens' result, the game's index, the hand evaluation's logit and where it was taken
    (`TURN_START`…) of every decision position of every game, and of where each action phase ends."""
    game = get_game("polis")
    xs: list[list[float]] = []
    ys: list[float] = []
    gid: list[int] = []
    kind: list[int] = []
    for i, rec in enumerate(records):
        record = GameRecord.from_json(rec)
        winners = (record.outcome or {}).get("winners") or []
        y = (1.0 / len(winners)) if 0 in winners else 0.0
        st: Any = game.new_game(game.parse_options(record.options), record.seed)
        was_action = False
        for raw in record.actions:
            action = st.phase == common.ACTION
            decision = st.current_player() != CHANCE
            if st.phase != common.OVER and (decision or (was_action and not action)):
                xs.append(pv.inputs(st))
                ys.append(y)
                gid.append(i)
                kind.append(where_taken(st))
            was_action = action
            st.apply(game.decode_action(raw))
    x = np.array(xs)
    return {"x": x, "y": np.array(ys), "gid": np.array(gid), "hand": x[:, -1].copy(), "kind": np.array(kind)}


def _sig(t: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * t))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    eps = 1e-12
    return float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))


def fit(z: np.ndarray, y: np.ndarray, hidden: int, l2: float, seed: int, iters: int) -> dict[str, np.ndarray]:
    """The network on standardised inputs `z`: hidden weights (hidden × n), their biases, the output weights,
    the linear part and the bias. `hidden` 0 fits the linear part alone."""
    n, k = z.shape
    rng = np.random.default_rng(seed)
    shapes = [(hidden, k), (hidden,), (hidden,), (k,), (1,)]
    sizes = [int(np.prod(s)) for s in shapes]

    def unpack(theta: np.ndarray) -> list[np.ndarray]:
        out, at = [], 0
        for s, m in zip(shapes, sizes, strict=True):
            out.append(theta[at : at + m].reshape(s))
            at += m
        return out

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, c, v, s, b = unpack(theta)
        h = np.tanh(z @ w.T + c)
        t = h @ v + z @ s + b[0]
        p = _sig(t)
        g = (p - y) / n
        dh = np.outer(g, v) * (1.0 - h * h)
        grads = [
            dh.T @ z + 2 * l2 * w,
            dh.sum(axis=0),
            h.T @ g + 2 * l2 * v,
            z.T @ g + 2 * l2 * s,
            np.array([g.sum()]),
        ]
        reg = l2 * float((w * w).sum() + v @ v + s @ s)
        return log_loss(p, y) + reg, np.concatenate([x.ravel() for x in grads])

    start = np.concatenate(
        [
            rng.normal(0.0, 0.5 / np.sqrt(k), sizes[0]),
            np.zeros(hidden),
            rng.normal(0.0, 0.1, hidden),
            np.zeros(k),
            [0.0],
        ]
    )
    res = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": iters})
    w, c, v, s, b = unpack(res.x)
    return {"hidden": w, "hidden_bias": c, "out": v, "skip": s, "bias": b}


def predict(params: dict[str, np.ndarray], z: np.ndarray) -> np.ndarray:
    h = np.tanh(z @ params["hidden"].T + params["hidden_bias"])
    return _sig(h @ params["out"] + z @ params["skip"] + params["bias"][0])


def train(args: argparse.Namespace, where: Path) -> dict[str, Any]:
    boards = [b.strip() for b in args.boards.split(",") if b.strip()]
    t0, c0 = time.perf_counter(), time.process_time()
    if args.records:  # an experiment on games already played (the weights file then names them)
        records = [r for path in args.records for r in ordered(read_jsonl(path))]
    elif args.explore > 0 or (args.cache is not None and args.cache.exists()):
        records = []
    else:
        records = play(args.games, args.seed, args.jobs, boards, args.bots, where)
    if args.cache is not None and args.cache.exists():
        data = dict(np.load(args.cache))
    elif args.explore > 0:
        data = explore_positions(args.games, args.seed, args.jobs, boards, args.bots, args.explore)
    else:
        data = positions(records)
    if args.cache is not None and not args.cache.exists():
        np.savez_compressed(args.cache, **data)
    for path in args.extra:  # more positions, their games numbered after these
        more = dict(np.load(path))
        more["gid"] = more["gid"] + int(data["gid"].max()) + 1
        data = {k: np.concatenate([data[k], more[k]]) for k in data}
    if args.use == "leaves":  # where the search values its leaves: turn starts and the ends of action phases
        keep = data["kind"] != MID_TURN
        data = {k: v[keep] for k, v in data.items()}
    x, y, gid, hand = data["x"], data["y"], data["gid"], data["hand"]
    held = (gid % 10) == 9  # every tenth game is held out, whole
    mean = x[~held].mean(axis=0)
    scale = x[~held].std(axis=0)
    scale[scale < 1e-9] = 1.0
    mean = np.round(mean, DIGITS)
    scale = np.round(scale, DIGITS)
    z = (x - mean) / scale
    params = fit(z[~held], y[~held], args.hidden, args.l2, args.seed, args.iters)
    params = {k: np.round(v, DIGITS) for k, v in params.items()}
    linear = fit(z[~held], y[~held], 0, args.l2, args.seed, args.iters)
    # the hand evaluation with its scale and Athens' edge refitted on the training games
    hz = np.stack([hand, np.ones_like(hand)], axis=1)
    hp = minimize(
        lambda a: log_loss(_sig(hz[~held] @ a), y[~held]),
        np.array([1.0, 0.0]),
        method="Nelder-Mead",
    ).x
    base = float(y[~held].mean())

    def held_out(p: np.ndarray) -> float | None:
        return round(log_loss(p, y[held]), 4) if held.any() else None

    figures = {
        "held_out_log_loss": {
            "model": held_out(predict(params, z[held])),
            "linear": held_out(predict(linear, z[held])),
            "hand_refitted": held_out(_sig(hz[held] @ hp)),
            "constant": held_out(np.full(int(held.sum()), base)),
        },
        "training_log_loss": round(log_loss(predict(params, z[~held]), y[~held]), 4),
    }
    digest = hashlib.sha256(np.ascontiguousarray(np.round(x, 9)).tobytes() + y.tobytes()).hexdigest()
    cmd = (
        f"python scripts/train_polis_value.py --games {args.games} --seed {args.seed} --boards {args.boards} "
        f"--bots {args.bots} --hidden {args.hidden} --l2 {args.l2} --iters {args.iters} --explore {args.explore} "
        f"--use {args.use}"
    )
    meta = {
        "command": cmd,
        "seed": args.seed,
        "bots": args.bots,
        "boards": boards,
        "siege_rules": SIEGES.split("=")[1].split(","),
        "games": len(np.unique(gid)),
        "games_a_rule_and_board": args.games,
        "positions": len(y),
        "positions_held_out": int(held.sum()),
        "data_sha256": digest,
        "hidden_units": args.hidden,
        "l2": args.l2,
        "iterations": args.iters,
        "explore": args.explore,
        "use": args.use,
        **figures,
        "cpu_seconds_this_process": round(time.process_time() - c0, 1),
        "wall_seconds": round(time.perf_counter() - t0, 1),
    }
    return {
        "inputs": list(pv.INPUTS),
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "hidden": params["hidden"].tolist(),
        "hidden_bias": params["hidden_bias"].tolist(),
        "out": params["out"].tolist(),
        "skip": params["skip"].tolist(),
        "bias": float(params["bias"][0]),
        "meta": meta,
    }


def dump(model: dict[str, Any]) -> str:
    return json.dumps(model, separators=(",", ":")) + "\n"


def same_weights(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return fitting.same_weights(
        a, b, ("inputs", "mean", "scale", "hidden", "hidden_bias", "out", "skip", "bias")
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000, help="self-play games a siege rule and board")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--boards", default="default,balanced")
    ap.add_argument(
        "--bots",
        default="mcts:40",
        help="the bot on both seats of the self-play (the tree search at 40 iterations: mcts:easy when the shipped weights were made)",
    )
    ap.add_argument("--hidden", type=int, default=24, help="hidden units")
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--iters", type=int, default=500, help="L-BFGS iterations at most")
    ap.add_argument("--out", type=Path, default=pv.WEIGHTS)
    ap.add_argument("--keep", type=Path, default=None, help="keep the self-play games in this folder")
    ap.add_argument(
        "--records", type=Path, nargs="*", default=[], help="fit on these lab games.jsonl (experiments)"
    )
    ap.add_argument("--explore", type=float, default=0.0, help="self-play with this share of random moves")
    ap.add_argument(
        "--extra", type=Path, nargs="*", default=[], help="more positions (.npz caches) to fit on"
    )
    ap.add_argument(
        "--use", choices=("all", "leaves"), default="all", help="leaves: turn starts and round ends"
    )
    ap.add_argument("--cache", type=Path, default=None, help="store / reuse the positions here (.npz)")
    ap.add_argument("--check", action="store_true", help="retrain from --out's own settings and compare")
    args = ap.parse_args(argv)
    shipped = None
    if args.check:
        shipped = json.loads(args.out.read_text(encoding="utf-8"))
        m = shipped["meta"]
        args.games, args.seed, args.boards = m["games_a_rule_and_board"], m["seed"], ",".join(m["boards"])
        args.bots, args.hidden, args.l2, args.iters = m["bots"], m["hidden_units"], m["l2"], m["iterations"]
        args.explore, args.use = m["explore"], m["use"]
    if args.records:
        args.boards = "from records: " + " ".join(str(p) for p in args.records)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        model = train(args, args.keep)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            model = train(args, Path(tmp))
    print(json.dumps(model["meta"], indent=1))
    if shipped is not None:
        ok = same_weights(model, shipped)
        print("the same weights as the shipped file" if ok else "DIFFERENT weights from the shipped file")
        return 0 if ok else 1
    args.out.write_text(dump(model), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
