"""What the bots' training scripts share (`scripts/train_*.py`; the lab extra): the softmax over a choice set of
varying size, and a shipped weights file compared with a retrained one (their `--check`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np


def masked_softmax(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each row's softmax over the entries `mask` keeps (the others 0): a conditional logit's choice
    probabilities, the rows being choice sets (players, candidate moves) padded to one width."""
    s = np.where(mask, scores, -np.inf)
    s = s - s.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(s), 0.0)
    p: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return p


def digest(arrays: dict[str, np.ndarray], keys: Sequence[str]) -> str:
    """SHA-256 of the training data (`keys`' arrays in order): the weights file's `data_sha256`."""
    h = hashlib.sha256()
    for key in keys:
        h.update(np.ascontiguousarray(arrays[key]).tobytes())
    return h.hexdigest()


def same_weights(a: dict[str, Any], b: dict[str, Any], keys: Sequence[str] = ("inputs", "weights")) -> bool:
    """Two weights files hold the same model fitted on the same data (`keys` and the data's digest)."""
    return all(a[k] == b[k] for k in keys) and a["meta"]["data_sha256"] == b["meta"]["data_sha256"]


def check_or_write(out: Path, check: bool, train: Callable[[], dict[str, Any]],
                   retrain: Callable[[dict[str, Any]], dict[str, Any]]) -> int:  # fmt: skip
    """A training script's end: with `check`, retrain from `out`'s own settings (`retrain(meta)`) and say whether
    the weights come out the same (exit status 0) or not (1); else train, write `out` and print what was made."""
    if check:
        old = json.loads(out.read_text(encoding="utf-8"))
        new = retrain(old["meta"])
        same = same_weights(old, new)
        print("the same weights" if same else "the weights differ: " + json.dumps(new["weights"]))
        return 0 if same else 1
    made = train()
    out.write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(made["meta"], indent=1))
    print(dict(zip(made["inputs"], made["weights"], strict=True)))
    return 0
