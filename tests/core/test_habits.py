"""Code habits CI enforces (issue 14 item 4 and "tests and habits"): no import cycles inside `hegemon.core` and
`hegemon.games`, no `type: ignore` without a reason on its line, and the server reports through `logging`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "hegemon"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module is imported: module level, inside if/try/with blocks, but not under
    `if TYPE_CHECKING:` and not inside functions or classes' methods."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node):
                todo.extend(node.body)
            todo.extend(node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend([*node.body, *node.orelse, *node.finalbody])
            for handler in node.handlers:
                todo.extend(handler.body)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            todo.extend(node.body)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the hegemon modules it imports at import time (a `from pkg import name` counts as importing
    `pkg.name` when that is a module, else `pkg`)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in _top_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            edges.update(t for t in targets if t in modules and t != name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]], scope: tuple[str, ...]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing itself) among the
    modules whose names start with one of `scope` (Tarjan's algorithm)."""
    nodes = sorted(n for n in graph if n.startswith(scope))
    inside = set(nodes)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v] & inside):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    for v in nodes:
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle_and_the_graph_sees_real_imports() -> None:
    assert cycles({"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": {"a.x"}}, ("a.",)) == [
        ["a.x", "a.y", "a.z"]
    ]
    assert cycles({"a.x": {"a.y"}, "a.y": set()}, ("a.",)) == []
    graph = import_graph()
    assert "hegemon.core.game" in graph["hegemon.core.play"]
    assert "hegemon.games.polis.state" in graph["hegemon.games.polis.game"]


def test_no_import_cycles_in_core_and_games() -> None:
    assert cycles(import_graph(), ("hegemon.core", "hegemon.games")) == []


IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(?P<rest>.*)$")


def test_every_type_ignore_gives_its_reason_on_the_same_line() -> None:
    bare = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = IGNORE.search(line)
            if match is None:
                continue
            rest = match.group("rest").strip()
            if not (rest.startswith("#") and len(rest.lstrip("# ")) >= 8):
                bare.append(f"{path.relative_to(SRC)}:{number}: {line.strip()}")
    assert bare == [], "a `type: ignore` needs `  # reason` after it:\n" + "\n".join(bare)


def test_the_server_reports_through_logging_not_print() -> None:
    prints = []
    banners = 0
    for path in sorted((PACKAGE / "server").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        banner = {
            id(call)
            for fn in ast.walk(tree)
            if isinstance(fn, ast.FunctionDef) and fn.name == "run" and path.name == "app.py"
            for call in ast.walk(fn)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                if id(node) in banner:
                    banners += 1
                else:
                    prints.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert prints == [], "server code prints instead of logging: " + ", ".join(prints)
    assert banners == 1, "the startup banner of `run` is the server's one print"


STRICT_FLAGS = (
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "disallow_untyped_decorators",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
    "extra_checks",
)


def test_mypy_runs_strict_on_all_of_src() -> None:
    """`mypy src` (make lint, make typecheck, CI) is `mypy --strict src`: strict for every module, no override
    turning one of --strict's flags off, and the targets run it on src."""
    import tomllib

    config = tomllib.loads((SRC.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True and config["files"] == ["src"] and config["warn_unused_ignores"]
    for override in config.get("overrides", []):
        assert not [f for f in (*STRICT_FLAGS, "strict") if override.get(f) is False], override
    assert not [k for k in config if k in STRICT_FLAGS and config[k] is False]
    makefile = (SRC.parent / "Makefile").read_text(encoding="utf-8")
    for target in ("lint:", "typecheck:"):
        recipe = makefile.split(f"\n{target}", 1)[1].split("\n\n", 1)[0]
        assert "/mypy src" in recipe, target


def test_ruff_format_is_enforced_and_the_tree_is_formatted() -> None:
    """`ruff format` is enforced: `make lint` (so `make test` and CI) and the pre-commit hooks check it, and the
    tree as it is passes the check."""
    import subprocess
    import sys
    from pathlib import Path

    root = SRC.parent
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert "ruff format --check src tests benchmarks scripts" in recipe
    assert "ruff format --check" in (root / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    ruff = Path(sys.executable).parent / "ruff"
    done = subprocess.run([str(ruff), "format", "--check", "src", "tests", "benchmarks", "scripts"], cwd=root,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]
