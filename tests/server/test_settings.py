"""The web table's settings (`server/settings.py`): one declaration per environment variable, one parser; each
bad value is a typed SettingsError naming its variable (and `hegemon serve` stops on it before it starts), a flag
given wins over its variable, and docs/web-table.md's table is the one the declarations write."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hegemon.server.settings import GROUPS, Settings, SettingsError, load, markdown_table, specs

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web-table.md"
EVERY = [(group, name, default, spec) for group in GROUPS.values() for name, default, spec in specs(group)]


def test_defaults_without_any_variable() -> None:
    s = Settings.from_env({})
    assert s == Settings()
    assert (s.tables.max_tables, s.odds.workers, s.ws.spectators, s.expiry.idle_after) == (
        2000,
        1,
        10_000,
        3 * 86400.0,
    )


def test_every_variable_is_read_into_its_field() -> None:
    env = {"HEGEMON_MAX_TABLES": "500", "HEGEMON_ODDS_TIMEOUT": "2.5", "HEGEMON_WS_COOLOFF": "0",
           "HEGEMON_EXPIRE_IDLE": "0", "HEGEMON_LOG_FORMAT": "JSON", "HEGEMON_KEEP_ALIVE_TIMEOUT": "7",
           "HEGEMON_TRUSTED_PROXIES": "10.0.0.1, ::1", "HEGEMON_READ_WORK": " 0.5 "}  # fmt: skip
    s = Settings.from_env(env)
    assert s.tables.max_tables == 500 and isinstance(s.tables.max_tables, int)
    assert s.odds.timeout == 2.5 and s.ws.cooloff == 0.0 and s.expiry.idle_after is None
    assert s.serve.log_format == "json" and s.network.keep_alive == 7 and s.reads.work == 0.5
    assert s.serve.trusted_proxies == "10.0.0.1, ::1"
    assert len({spec.env for *_, spec in EVERY}) == len(EVERY) == 35  # one variable, one field


def test_a_flag_given_wins_over_its_variable() -> None:
    env = {"HEGEMON_LOG_LEVEL": "error", "HEGEMON_EXPIRE_FINISHED": "60"}
    s = Settings.from_env(
        env, serve={"log_level": "debug", "search_workers": None}, expiry={"finished_after": 0}
    )
    assert s.serve.log_level == "debug" and s.expiry.finished_after is None
    with pytest.raises(SettingsError, match="HEGEMON_SEARCH_BUDGET"):
        Settings.from_env({}, serve={"search_budget": -1})  # a flag is held to the same bounds


@pytest.mark.parametrize(("group", "name", "default", "spec"), EVERY, ids=[spec.env for *_, spec in EVERY])
def test_each_bad_value_is_a_typed_error_naming_its_variable(
    group: type, name: str, default: object, spec: object
) -> None:
    env_name = spec.env  # type: ignore[attr-defined]  # a settings field spec, typed loosely
    kind = spec.kind  # type: ignore[attr-defined]  # a settings field spec, typed loosely
    bad = {"choice": ["loud"], "text": {"HEGEMON_PUBLIC_URL": ["ftp://x"], "HEGEMON_TRUSTED_PROXIES": ["10.0.0.300"],
                                          "HEGEMON_METRICS_TOKEN": ["short"]}.get(env_name, [])}.get(kind)  # fmt: skip
    if bad is None:
        bad = ["many", "nan", "inf", "-1", "1e12"] + (["2.5"] if kind == "whole" else [])
    for raw in bad:
        with pytest.raises(SettingsError, match=env_name) as e:
            load(group, {env_name: raw})
        assert isinstance(e.value, ValueError) and e.value.env == env_name
    assert load(group, {env_name: "  "}) == group()  # blank: the default


def test_the_secret_token_is_never_echoed() -> None:
    with pytest.raises(SettingsError) as e:
        Settings.from_env({"HEGEMON_METRICS_TOKEN": "s3cret with spaces inside"})
    assert "s3cret" not in str(e.value)


def test_the_docs_table_is_the_one_the_declarations_write() -> None:
    text = DOCS.read_text()
    start = text.index("<!-- settings table: python -m hegemon.server.settings -->\n")
    end = text.index("<!-- end of settings table -->")
    assert text[start:end].split("\n", 1)[1].strip() == markdown_table()


def test_serve_stops_on_a_bad_value_before_it_starts(tmp_path: Path) -> None:
    env = {**os.environ, "HEGEMON_ODDS_WORKERS": "lots"}
    out = subprocess.run([sys.executable, "-m", "hegemon.cli", "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'h.db'}"],
                         capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert out.returncode != 0
    assert "HEGEMON_ODDS_WORKERS" in out.stderr + out.stdout
    assert not (tmp_path / "h.db").exists()  # nothing was opened
