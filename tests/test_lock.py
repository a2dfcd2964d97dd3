"""The lockfiles stay in sync with pyproject.toml (issue 25 item 3): every range of pyproject.toml is met by its
pin, `make run`'s lock agrees with `make test`'s, and the environment the tests run in is the locked one.
Regenerate with `make lock` (scripts/lock.sh) after changing a dependency."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def pins(name: str) -> dict[str, str]:
    """The lockfile's pins that apply to this interpreter (markers evaluated)."""
    out: dict[str, str] = {}
    for line in (ROOT / "requirements" / name).read_text().splitlines():
        if not line or line.startswith((" ", "#")):
            continue
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate():
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", line
        out[canonicalize_name(req.name)] = spec.version
    return out


def requirements(group: str | None) -> list[Requirement]:
    raw = (
        PYPROJECT["project"]["dependencies"]
        if group is None
        else PYPROJECT["project"]["optional-dependencies"][group]
    )
    return [Requirement(r) for r in raw if not r.startswith("hegemon")]


def applies(req: Requirement) -> bool:
    return req.marker is None or req.marker.evaluate(dict(default_environment(), extra=""))


def test_no_duplicate_or_exact_ranges() -> None:
    groups = [None, *PYPROJECT["project"]["optional-dependencies"]]
    for group in groups:
        names = [canonicalize_name(r.name) for r in requirements(group)]
        assert len(names) == len(set(names)), (group, names)
        for r in requirements(group):
            assert all(s.operator != "==" for s in r.specifier), (
                f"{r}: pyproject.toml takes ranges; pins go in the lock"
            )
    # the test extra brings every other extra, so that `make test` tests all of them
    test = PYPROJECT["project"]["optional-dependencies"]["test"]
    others = sorted(g for g in PYPROJECT["project"]["optional-dependencies"] if g != "test")
    assert any(r.startswith("hegemon[") and all(g in r for g in others) for r in test), test


def test_locks_meet_pyproject() -> None:
    run, test = pins("run.lock"), pins("test.lock")
    for req in requirements(None):
        if applies(req):
            for lock, name in ((run, "run.lock"), (test, "test.lock")):
                version = lock.get(canonicalize_name(req.name))
                assert version is not None, f"{req.name} is not in {name}: run `make lock`"
                assert req.specifier.contains(version, prereleases=True), (
                    f"{name}: {req.name}=={version} vs {req}"
                )
    for group in PYPROJECT["project"]["optional-dependencies"]:
        for req in requirements(group):
            if applies(req):
                version = test.get(canonicalize_name(req.name))
                assert version is not None, f"{req.name} ({group}) is not in test.lock: run `make lock`"
                assert req.specifier.contains(version, prereleases=True), (
                    f"test.lock: {req.name}=={version} vs {req}"
                )


def test_run_lock_agrees_with_test_lock() -> None:
    run, test = pins("run.lock"), pins("test.lock")
    disagree = {n: (v, test.get(n)) for n, v in run.items() if test.get(n) != v}
    assert not disagree, (
        f"run.lock and test.lock pin differently (regenerate both with `make lock`): {disagree}"
    )


def test_environment_is_the_locked_one() -> None:
    """`make test` installed requirements/test.lock: the versions under test are the pinned ones."""
    test = pins("test.lock")
    wrong = {}
    for name, version in test.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            wrong[name] = (version, None)
            continue
        if installed != version:
            wrong[name] = (version, installed)
    assert not wrong, f"installed versions differ from requirements/test.lock (pinned, installed): {wrong}"


def test_one_version_everywhere() -> None:
    """pyproject.toml, hegemon.__version__ and the changelog's latest release agree."""
    import re

    import hegemon

    version = PYPROJECT["project"]["version"]
    assert hegemon.__version__ == version
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.M)
    assert releases and releases[0] == version, releases
