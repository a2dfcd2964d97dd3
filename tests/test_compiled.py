"""The compiled engine (mypyc, see setup.py and src/hegemon/_native.py) against the pure-Python one.

- Side by side: the same seeded games are played here (compiled engine, when built) and in a subprocess with
  HEGEMON_PURE=1 (the .py sources); every step's player, phase, legal actions (or chance outcomes), chosen
  action, periodic state digests and views, and the outcome must be identical.
- The import guard: a compiled module is used only while its build matches every source it depends on; an
  edited source, a missing manifest or HEGEMON_PURE=1 loads every engine module from its .py file instead.

These tests need the compiled build (`pip install -e .` builds it in place). Outside CI, without one (e.g. a
worktree run with PYTHONPATH=src), the side-by-side and guard tests are skipped and say why; in CI (CI=true)
a missing build fails. The manifest logic itself is tested without a build.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hegemon import _native
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import sample_chance
from hegemon.core.record import canonical_json, state_digest
from hegemon.games import get_game

ROOT = Path(__file__).resolve().parent.parent
PKG_ROOT = Path(_native.__file__).resolve().parent.parent  # the directory that holds hegemon/ (src/ or site)

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    *[
        ("spqrisiko", {"rules": r, "players": p}, seed)
        for r in ("house-1.2", "official")
        for p in (3, 4, 5)
        for seed in (1, 2)
    ],
    ("spqrisiko", {"rules": "house-1.2", "players": 4, "random_deal": False}, 3),
    *[
        ("polis", {"siege": s}, seed)
        for s in ("classic", "sacrifice", "diceless", "diceless_sacrifice")
        for seed in (1, 2, 3, 4)
    ],
]


def _short(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def transcript(game_name: str, raw: dict[str, Any], seed: int, max_actions: int = 2500) -> list[str]:
    """One seeded uniform-random game as lines: each step's player, phase, legal actions (or chance
    outcomes with probabilities) and chosen action; every 40 steps the state digest and the mover's view; a
    clone or a pickled copy replaces the state every 97 steps (both copies must go on identically); then the
    outcome."""
    game = get_game(game_name)
    opts = game.parse_options({**game.selfplay_defaults, **raw})
    state = game.new_game(opts, seed)
    rng = random.Random(seed)
    lines = []
    for i in range(max_actions):
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            offered = _short("|".join(f"{a}:{p!r}" for a, p in outcomes))
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            offered = _short("|".join(canonical_json(a.to_json()) for a in legal))
            action = legal[int(rng.random() * len(legal))]
        lines.append(f"{i} p{player} {state.phase_name()} {offered} {canonical_json(action.to_json())}")
        if i % 40 == 0:
            seen = None if player < 0 else player
            lines.append(f"{i} digest {state_digest(state)} view {_short(canonical_json(state.view(seen)))}")
        if i % 97 == 96:  # a clone, or a pickled copy (as search workers get), goes on in its place
            twin = state.clone() if i % 2 else pickle.loads(pickle.dumps(state))
            twin.apply(action)
            state.apply(action)
            assert state_digest(twin) == state_digest(state)
            state = twin
        else:
            state.apply(action)
    outcome = state.outcome()
    lines.append(f"end {state_digest(state)} {canonical_json(outcome.to_json()) if outcome else None}")
    return lines


def _engine_modules() -> dict[str, bool]:
    return {name: _native.is_compiled(importlib.import_module(name)) for name in _native.NATIVE}


def _require_build() -> None:
    """Fail in CI, skip elsewhere, unless this process runs the compiled engine."""
    compiled = _engine_modules()
    if all(compiled.values()):
        return
    missing = sorted(n for n, c in compiled.items() if not c)
    why = (
        f"the engine is not compiled here ({len(missing)} of {len(compiled)} modules from .py, e.g. "
        f"{missing[0]}): build it with `pip install -e .`"
    )
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(why)
    pytest.skip(why)


def _run(code: str, *, pure: bool, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    if pure:
        env[_native.PURE_ENV] = "1"
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), str(ROOT)])
    else:
        env["PYTHONPATH"] = os.pathsep.join([str(PKG_ROOT), str(ROOT)])
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


_REPORT = """
import importlib, json
from hegemon import _native
print(json.dumps({n: _native.is_compiled(importlib.import_module(n)) for n in _native.NATIVE}))
"""


def test_compiled_and_pure_engines_play_identical_seeded_games() -> None:
    _require_build()
    code = (
        "import json\nfrom tests.test_compiled import CONFIGS, transcript, _engine_modules\n"
        "assert not any(_engine_modules().values()), 'HEGEMON_PURE=1 still loaded a compiled module'\n"
        "print(json.dumps([transcript(g, raw, seed) for g, raw, seed in CONFIGS]))\n"
    )
    proc = _run(code, pure=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    pure = json.loads(proc.stdout)
    assert len(pure) == len(CONFIGS)
    steps = 0
    for (game, raw, seed), theirs in zip(CONFIGS, pure, strict=True):
        ours = transcript(game, raw, seed)
        first = next(
            (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
            min(len(ours), len(theirs)),
        )
        assert ours == theirs, (
            f"{game} {raw} seed {seed}: compiled and pure engines differ at line {first}: "
            f"{ours[first : first + 1]} != {theirs[first : first + 1]}"
        )
        assert ours[-1].startswith("end ") and len(ours) > 20
        steps += len(ours)
    assert steps > 5000


def test_pure_env_loads_every_engine_module_from_source_and_says_nothing() -> None:
    _require_build()
    proc = _run(_REPORT, pure=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {n: False for n in _native.NATIVE}
    assert "compiled" not in proc.stderr


@pytest.fixture
def tree_copy(tmp_path: Path) -> Path:
    """A copy of the installed package with its compiled build (sources, extensions, manifest)."""
    _require_build()
    shutil.copytree(
        PKG_ROOT / "hegemon",
        tmp_path / "hegemon",
        ignore=shutil.ignore_patterns("__pycache__", "web", "*.md"),
    )
    shutil.copy2(PKG_ROOT / _native.built_files()[0], tmp_path)
    return tmp_path


def test_a_current_build_is_used(tree_copy: Path) -> None:
    proc = _run(_REPORT, pure=False, path=tree_copy)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {n: True for n in _native.NATIVE}
    assert proc.stderr == ""


def test_an_edited_source_loads_every_engine_module_from_source_with_a_warning(tree_copy: Path) -> None:
    edited = tree_copy / "hegemon" / "games" / "spqrisiko" / "rules" / "navy.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    proc = _run(
        _REPORT + "import hegemon.games.spqrisiko.rules.navy as m; assert m.EDITED\n",
        pure=False,
        path=tree_copy,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0]) == {n: False for n in _native.NATIVE}
    assert "hegemon/games/spqrisiko/rules/navy.py changed since the engine was compiled" in proc.stderr
    assert "pip install -e ." in proc.stderr


def test_an_extension_left_over_for_a_module_outside_the_build_is_ignored(tree_copy: Path) -> None:
    suffix = _native.built_files()[0].removeprefix(f"{_native.GROUP}__mypyc")
    core = tree_copy / "hegemon" / "core"
    shutil.copy2(
        core / f"errors{suffix}", core / f"boardfile{suffix}"
    )  # hegemon.core.boardfile is not compiled
    proc = _run(
        _REPORT + "import hegemon.core.boardfile as m; print(_native.is_compiled(m), m.__file__)\n",
        pure=False,
        path=tree_copy,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert json.loads(lines[0]) == {n: True for n in _native.NATIVE}
    assert lines[1] == f"False {core / 'boardfile.py'}"


def test_a_build_without_manifest_is_not_trusted(tree_copy: Path) -> None:
    _native.remove_manifest(tree_copy)
    proc = _run(_REPORT, pure=False, path=tree_copy)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {n: False for n in _native.NATIVE}
    assert "without a build manifest" in proc.stderr


def test_the_manifest_lists_each_compiled_source_and_its_imports_and_finds_every_change(
    tmp_path: Path,
) -> None:
    shutil.copytree(
        ROOT / "src" / "hegemon",
        tmp_path / "hegemon",
        ignore=shutil.ignore_patterns("__pycache__", "web", "*.so", "_native.json"),
    )
    deps = _native.depended_sources(tmp_path)
    assert set(_native.source_paths()) <= set(deps)
    assert "hegemon/core/game.py" in deps  # not compiled, but compiled modules import it
    assert _native.stale_sources(tmp_path) is None  # no manifest: nothing to trust
    _native.write_manifest(tmp_path, tmp_path)
    assert _native.stale_sources(tmp_path) == []
    assert not _native.reusable(tmp_path)  # no extension files beside the sources
    for rel in ("hegemon/games/polis/state.py", "hegemon/core/game.py"):
        (tmp_path / rel).write_text(
            (tmp_path / rel).read_text(encoding="utf-8") + "# edit\n", encoding="utf-8"
        )
    assert _native.stale_sources(tmp_path) == ["hegemon/core/game.py", "hegemon/games/polis/state.py"]
    (tmp_path / "hegemon/core/game.py").unlink()
    assert "hegemon/core/game.py" in (_native.stale_sources(tmp_path) or [])
    manifest = _native.manifest_path(tmp_path)
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace(_native.GROUP, "other"), encoding="utf-8"
    )
    assert _native.stale_sources(tmp_path) is None  # a manifest of another build is not this one's
