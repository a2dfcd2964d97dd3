"""The compiled engine: which modules mypyc compiles, and the import guard that keeps them honest.

`pip install -e .` (setup.py) compiles the modules of `NATIVE` with mypyc into one shared library
(`hegemon_engine__mypyc`) and one small extension module beside each source file, then writes the manifest
`hegemon/_native.json` with the SHA-256 of every source the compiled code depends on. Python imports an
extension module in preference to the .py beside it, so after an edit an in-place build would silently run
stale code; the guard `install()` (called by `hegemon/__init__.py`) prevents that: a compiled module is used
only while the manifest matches every source it lists. Otherwise, or when `HEGEMON_PURE=1` is set, every
engine module is loaded from its .py file (all of them: compiled and interpreted engine modules never mix).

This module imports nothing from hegemon: setup.py loads it on its own.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import ExtensionFileLoader, ModuleSpec, PathFinder, SourceFileLoader
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

# (hashlib, json, logging, ast and sysconfig are imported where used: `import hegemon` stays cheap)

GROUP = "hegemon_engine"
"""The name of the shared library that holds all the compiled code (`hegemon_engine__mypyc.*.so`)."""

NATIVE: tuple[str, ...] = (
    "hegemon.ai.games.polis",
    "hegemon.ai.games.polis_policy",
    "hegemon.ai.games.polis_value",
    "hegemon.ai.games.spqrisiko",
    "hegemon.ai.games.spqr_value",
    "hegemon.ai.mcts",
    "hegemon.ai.search",
    "hegemon.core.errors",
    "hegemon.core.play",
    "hegemon.core.record",
    "hegemon.games.spqrisiko.combat",
    "hegemon.games.spqrisiko.phase",
    "hegemon.games.spqrisiko.records",
    "hegemon.games.spqrisiko.scoring",
    "hegemon.games.spqrisiko.state",
    "hegemon.games.spqrisiko.rules.attacks",
    "hegemon.games.spqrisiko.rules.common",
    "hegemon.games.spqrisiko.rules.index",
    "hegemon.games.spqrisiko.rules.navy",
    "hegemon.games.spqrisiko.rules.reinforcements",
    "hegemon.games.spqrisiko.rules.setup",
    "hegemon.games.spqrisiko.rules.tables",
    "hegemon.games.spqrisiko.rules.turn",
    "hegemon.games.polis.board",
    "hegemon.games.polis.phase",
    "hegemon.games.polis.scoring",
    "hegemon.games.polis.state",
    "hegemon.games.polis.rules.battle",
    "hegemon.games.polis.rules.common",
    "hegemon.games.polis.rules.development",
    "hegemon.games.polis.rules.economy",
    "hegemon.games.polis.rules.events",
    "hegemon.games.polis.rules.flow",
    "hegemon.games.polis.rules.movement",
    "hegemon.games.polis.rules.proxenos",
    "hegemon.games.polis.rules.round_end",
    "hegemon.games.polis.rules.sieges",
    "hegemon.games.polis.rules.tables",
)
"""The engine modules compiled with mypyc: core types, every rules module of both games, the Polis board's tables
(read on every rules and evaluation step; a loaded board is an interpreted subclass, `board_held.HeldBoard`, so
the registry can hold it weakly), and the bots' search and game knowledge (not the game objects, which hold no hot
code and subclass `core.gamebase.BaseGame`, nor the CLI, server, web or lab, which gain little and change often)."""

_NATIVE_SET = frozenset(NATIVE)
MANIFEST = "_native.json"
PURE_ENV = "HEGEMON_PURE"


def source_paths() -> list[str]:
    """The source file of every module of `NATIVE`, relative to the directory that holds `hegemon/`."""
    return [m.replace(".", "/") + ".py" for m in NATIVE]


def _imports(root: Path, rel: str) -> set[str]:
    """The hegemon source files that the module at `root/rel` imports directly (relative to root)."""
    import ast

    tree = ast.parse((root / rel).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    found: set[str] = set()
    for name in names:
        if not name.startswith("hegemon."):
            continue
        base = root / name.replace(".", "/")
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                found.add(candidate.relative_to(root).as_posix())
    return found


def depended_sources(root: Path) -> list[str]:
    """Every compiled source plus each hegemon module it imports directly: an edit to any of them makes a
    compiled build stale (compiled code checks the types that its imports return)."""
    deps = set(source_paths())
    for rel in source_paths():
        deps |= _imports(root, rel)
    return sorted(deps)


def _digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _suffix() -> str:
    import sysconfig

    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def built_files() -> list[str]:
    """The extension files a complete build leaves beside the sources (relative to the source root)."""
    return [f"{GROUP}__mypyc{_suffix()}"] + [m.replace(".", "/") + _suffix() for m in NATIVE]


def manifest_path(root: Path) -> Path:
    return root / "hegemon" / MANIFEST


def remove_manifest(root: Path) -> None:
    manifest_path(root).unlink(missing_ok=True)


def remove_built(root: Path) -> None:
    """Delete the extension files of an earlier in-place build under `root` (and its manifest)."""
    remove_manifest(root)
    for rel in built_files():
        (root / rel).unlink(missing_ok=True)


def write_manifest(target: Path, sources: Path) -> None:
    """Record the digests of the sources under `sources` that the build in `target` was made from."""
    import json

    data = {
        "group": GROUP,
        "ext_suffix": _suffix(),
        "modules": list(NATIVE),
        "sources": {rel: _digest(sources / rel) for rel in depended_sources(sources)},
    }
    path = manifest_path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def stale_sources(root: Path) -> list[str] | None:
    """The sources under `root` that changed since the compiled build described by its manifest ([] when it
    matches them all), or None when there is no usable manifest for this interpreter."""
    import json

    try:
        data = json.loads(manifest_path(root).read_text(encoding="utf-8"))
        if (
            data.get("group") != GROUP
            or data.get("ext_suffix") != _suffix()
            or data.get("modules") != list(NATIVE)
        ):
            return None
        sources: dict[str, str] = data["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    changed = []
    for rel, digest in sources.items():
        try:
            if _digest(root / rel) != digest:
                changed.append(rel)
        except OSError:
            changed.append(rel)
    return changed


def reusable(root: Path) -> bool:
    """An in-place build under `root` is complete and matches the sources (setup.py then skips compiling)."""
    return stale_sources(root) == [] and all((root / rel).is_file() for rel in built_files())


def pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


class _Guard:
    """A meta-path finder for hegemon's own modules: a compiled module when the build is current, else the
    .py source beside it. Decided once per process, on the first compiled module found."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.native: bool | None = None

    def _decide(self) -> bool:
        import logging

        log = logging.getLogger("hegemon")
        if pure_requested():
            log.debug("%s is set: the engine runs as pure Python", PURE_ENV)
            return False
        stale = stale_sources(self.root)
        if stale is None:
            log.warning(
                "hegemon: compiled engine modules without a build manifest for this Python (an "
                "interrupted or foreign build): running pure Python; rebuild with `make install` (or `pip install -e .`)"
            )
            return False
        if stale:
            more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
            log.warning(
                "hegemon: %s changed since the engine was compiled: running pure Python (correct, "
                "slower); rebuild with `make install` (or `pip install -e .`) or set %s=1 to silence this",
                ", ".join(stale[:3]) + more,
                PURE_ENV,
            )
            return False
        return True

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("hegemon."):
            return None
        spec = PathFinder.find_spec(fullname, path, target)
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader) or spec.origin is None:
            return spec
        if self.native is None:
            self.native = self._decide()
        if self.native and fullname in _NATIVE_SET:
            return spec  # (an extension of a module outside the build's list is left over from another build)
        folder, name = os.path.split(spec.origin)
        source = os.path.join(folder, name.split(".", 1)[0] + ".py")
        if not os.path.isfile(source):
            return spec
        pure = ModuleSpec(
            fullname,
            SourceFileLoader(fullname, source),
            origin=source,
            is_package=spec.submodule_search_locations is not None,
        )
        pure.has_location = True
        if spec.submodule_search_locations is not None:
            pure.submodule_search_locations = spec.submodule_search_locations
        return pure

    def invalidate_caches(self) -> None:
        return None


def install(package_dir: str) -> None:
    """Put the guard first on `sys.meta_path` (once), for the hegemon package living in `package_dir`."""
    if not any(isinstance(f, _Guard) for f in sys.meta_path):
        sys.meta_path.insert(0, _Guard(Path(package_dir).parent))


def is_compiled(module: ModuleType) -> bool:
    """Whether `module` was loaded from a compiled extension (rather than its .py source)."""
    return isinstance(getattr(module, "__loader__", None), ExtensionFileLoader)
