"""Fit the Polis evaluation's weights to game results (Texel tuning; issue 13 item 1).

The evaluation (`ai/games/polis.py`) is a logistic of the difference of the sides' strengths, and a strength is
the score plus weighted terms: units, resources, silver, merchants, the league, sieges within reach, the
diceless sieges in progress, hunger, the prestige danger... Its weights were set by hand and by playing
candidates against greedy (`scripts/tune_polis.py`), one weight at a time. Here they are fitted at once: replay
stored lab games, take every position where a turn of the action phase starts (where the search values its
leaves: the end of the searching side's turn), compute each term for both sides (`features`, which mirrors
`strength` and is checked against it by tests/ai/test_polis_fit.py) and fit a logistic regression of the result
(Athens won 1, lost 0, a tie 0.5) on the differences of the terms, with a seat intercept (the board's
imbalance, which ranks no move) and a light L2 penalty. The score's coefficient gives the logistic's scale
(1 / coefficient) and each term's coefficient divided by it gives the term's weight in score points.

Fitted per round too (`--by-round`), to see whether a weight should change as the game goes on.

Use:
    python scripts/fit_polis.py /tmp/fit5/games.jsonl /tmp/big11/games.jsonl [--by-round] [--siege sacrifice]
    python scripts/fit_polis.py ... --json weights.json   # the fitted weights, as `Weights` overrides"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from hegemon.ai.games import polis as know

# the strength's terms and the function that computes them live with the learned evaluation, which takes them
# as its inputs (`ai/games/polis_value.py`)
from hegemon.ai.games.polis_value import TERMS, coefficients, features
from hegemon.core.game import CHANCE
from hegemon.core.record import GameRecord
from hegemon.games import get_game
from hegemon.games.polis.rules import common


def weighted(st: Any, s: int, w: know.Weights = know.DEFAULT) -> float:
    """`strength` recomputed from `features` and `coefficients` (the test's check that they mirror it)."""
    return sum(c * x for c, x in zip(coefficients(w), features(st, s, w), strict=True))


def positions(
    path: Path, siege: str | None, w: know.Weights
) -> Iterator[tuple[int, str, str, list[float], float]]:
    """(round, siege rule, the bots by seat, Athens' terms minus Sparta's, Athens' result) at the start of every
    action-phase turn of every game in the JSONL file."""
    game = get_game("polis")
    with path.open() as fh:
        for line in fh:
            rec = json.loads(line)
            record = GameRecord.from_json(rec)
            rule = str(record.options.get("siege", "classic"))
            if siege is not None and rule != siege:
                continue
            out = record.outcome or {}
            winners = out.get("winners") or []
            y = (1.0 / len(winners)) if 0 in winners else 0.0
            st: Any = game.new_game(game.parse_options(record.options), record.seed)
            for raw in record.actions:
                if (
                    st.phase == common.ACTION
                    and not st.n_actions
                    and st.current_player() != CHANCE
                    and st.pending is None
                ):
                    a, s = features(st, 0, w), features(st, 1, w)
                    yield (
                        st.round,
                        rule,
                        ",".join(record.seats),
                        [x - z for x, z in zip(a, s, strict=True)],
                        y,
                    )
                st.apply(game.decode_action(raw))


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float, float]:
    """Logistic regression with an intercept, L2 on the slopes: (slopes, intercept, mean log loss)."""
    n, k = x.shape
    sd = x.std(axis=0)
    sd[sd < 1e-9] = 1.0
    z = x / sd

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        b, c = theta[:k], theta[k]
        t = z @ b + c
        p = 1.0 / (1.0 + np.exp(-t))
        eps = 1e-12
        ll = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + l2 * float(b @ b) / n
        g = p - y
        grad = np.concatenate([z.T @ g / n + 2 * l2 * b / n, [g.mean()]])
        return float(ll), grad

    res = minimize(loss, np.zeros(k + 1), jac=True, method="L-BFGS-B")
    b = res.x[:k] / sd
    return b, float(res.x[k]), float(loss(res.x)[0])


def log_loss(x: np.ndarray, y: np.ndarray, coef: np.ndarray, intercept: float) -> float:
    p = 1.0 / (1.0 + np.exp(-(x @ coef + intercept)))
    eps = 1e-12
    return float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))


def report(
    label: str, x: np.ndarray, ctl: np.ndarray, y: np.ndarray, l2: float, w: know.Weights
) -> dict[str, float]:
    """Fit and print the weights in score points next to `w`'s; the fitted `Weights` overrides. `ctl`: control
    columns (which bot sits where) fitted alongside, not reported."""
    k = x.shape[1]
    coef, intercept, _ = fit(np.hstack([x, ctl]), y, l2)
    fit_ll = log_loss(np.hstack([x, ctl]), y, coef, intercept)
    # the current evaluation on the same positions, its controls and intercept refitted alone
    cur = np.array(coefficients(w)) / w.scale
    t = x @ cur
    ctl_only, c0, _ = fit(np.hstack([t[:, None], ctl]), y, 0.0)
    free = np.concatenate([[1.0], ctl_only[1:]])
    res = minimize(
        lambda c: log_loss(np.hstack([t[:, None], ctl]), y, free, float(c[0])), [c0], method="Nelder-Mead"
    )
    cur_ll = log_loss(np.hstack([t[:, None], ctl]), y, free, float(res.x[0]))
    seat_coef, seat_c, _ = fit(ctl, y, 0.0) if ctl.shape[1] else (np.zeros(0), 0.0, 0.0)
    base = log_loss(ctl, y, seat_coef, seat_c)
    a0 = coef[0]
    print(
        f"\n{label}: {len(y)} positions, Athens result {y.mean():.3f}; log loss: seats and bots only {base:.4f}, "
        f"current weights {cur_ll:.4f}, fitted {fit_ll:.4f}  (spread of the current values {t.std():.2f})"
    )
    print(f"  scale: fitted {1 / a0 if a0 > 0 else float('inf'):.2f}, current {w.scale}")
    overrides: dict[str, float] = {"scale": round(1 / a0, 3) if a0 > 0 else w.scale}
    for (name, field, sign), c, now in zip(TERMS[1:], coef[1:k], coefficients(w)[1:], strict=True):
        val = c / a0 if a0 > 0 else float("nan")
        print(f"  {name:11s} fitted {val:+7.3f}   current {now:+7.3f}")
        if field is not None:
            overrides[field] = round(sign * val, 3)
    return overrides


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="+", type=Path, help="lab games.jsonl files (Polis)")
    ap.add_argument("--siege", default=None, help="only games under this siege rule")
    ap.add_argument("--by-round", action="store_true", help="fit each round apart too")
    ap.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the standardised slopes")
    ap.add_argument("--json", type=Path, default=None, help="write the pooled fit as Weights overrides")
    args = ap.parse_args(argv)
    w = know.SEARCH
    rows = [p for path in args.games for p in positions(path, args.siege, w)]
    if not rows:
        print("no positions", file=sys.stderr)
        return 1
    x = np.array([r[3] for r in rows])
    y = np.array([r[4] for r in rows])
    rounds = np.array([r[0] for r in rows])
    # which bots sit where (and the siege rule): controls, so that a term is not credited with the stronger
    # bot's seat
    groups = sorted({(r[1], r[2]) for r in rows})
    ctl = np.array([[1.0 if (r[1], r[2]) == g else 0.0 for g in groups[1:]] for r in rows]).reshape(
        len(rows), -1
    )
    pooled = report("all rounds", x, ctl, y, args.l2, w)
    if args.by_round:
        for r in sorted(set(rounds.tolist())):
            m = rounds == r
            report(f"round {r + 1}", x[m], ctl[m], y[m], args.l2, w)
    if args.json is not None:
        args.json.write_text(json.dumps(pooled, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
