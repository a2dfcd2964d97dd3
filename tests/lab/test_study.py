"""`hegemon lab study`: one command runs a study's comparison, luck share and skill ladder on each board and
writes its page from the runs' own figures (issue 27 item 4). Tiny sizes here; the checked-in pages say theirs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hegemon.core.errors import ConfigError
from hegemon.lab import study as st


def tiny(name: str = "polis-sieges") -> st.Study:
    return st.with_overrides(st.get_study(name), option="siege=classic,diceless", boards=("default",), bots="random",
                             luck_bots="random", levels="random,greedy", games=4, ladder_games=2, luck_settings=3,
                             luck_streams=2, seed=5)  # fmt: skip


def test_a_study_writes_its_page_from_its_runs(tmp_path: Path) -> None:
    study = tiny()
    data = st.run_study(study, tmp_path, command="hegemon lab study polis-sieges --games 4")
    page = (tmp_path / "README.md").read_text(encoding="utf-8")
    # the runs are kept beside the page
    for f in (
        "default/compare/summary.json",
        "default/luck/luck.json",
        "default/ladder/ladder.json",
        "study.json",
    ):
        assert (tmp_path / f).exists(), f
    # findings first, in both languages, then how it was made
    assert page.index("## Findings") < page.index("## In italiano") < page.index("## How it was made")
    assert "**Diceless** against Classic (default)" in page
    assert "**Senza dadi** rispetto a Classico (default)" in page
    assert "hegemon lab study polis-sieges --games 4" in page
    assert re.search(r"CPU time: \d+\.\d\d CPU hours", page)
    # the table's figures are the comparison's own
    summary = json.loads((tmp_path / "default/compare/summary.json").read_text())
    sparta = summary["variants"][1]["seat_win_rate"][1]["rate"]
    assert f"| Senza dadi | 4 | {100 * sparta:.1f}%".replace(".", ",") in page
    assert f"| Diceless | 4 | {100 * sparta:.1f}%" in page
    assert data["boards"]["default"]["spent"]["compare"]["cpu"] > 0
    # too few chance streams and settings: said, never hidden
    assert "at least" in page and "settings" in page


def test_a_study_resumes_from_its_stored_stages_and_rewrites_its_page(tmp_path: Path) -> None:
    study = tiny()
    first_run = st.run_study(study, tmp_path)
    luck = (tmp_path / "default/luck/luck.json").read_bytes()
    ladder = (tmp_path / "default/ladder/ladder.json").read_bytes()
    (tmp_path / "README.md").write_text("stale", encoding="utf-8")
    again = st.run_study(study, tmp_path)  # nothing is played again
    # and each stage still counts the time it took when it was played
    assert again["boards"]["default"]["spent"] == first_run["boards"]["default"]["spent"]
    assert first_run["boards"]["default"]["spent"]["luck"]["cpu"] > 0
    assert (tmp_path / "default/luck/luck.json").read_bytes() == luck
    assert (tmp_path / "default/ladder/ladder.json").read_bytes() == ladder
    first = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert first != "stale"
    (tmp_path / "README.md").write_text("stale", encoding="utf-8")
    st.rewrite_page(tmp_path)
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == first


def test_a_study_whose_levels_changed_plays_its_ladder_again(tmp_path: Path) -> None:
    st.run_study(tiny(), tmp_path)
    said: list[str] = []
    st.run_study(st.with_overrides(tiny(), levels="random,beginner"), tmp_path, on_stage=said.append)
    ladder = json.loads((tmp_path / "default/ladder/ladder.json").read_text(encoding="utf-8"))
    assert ladder["levels"] == ["random", "beginner"]
    assert any("playing it again" in s for s in said)
    assert "beginner" in (tmp_path / "README.md").read_text(encoding="utf-8")
    # a stage stored without its time (an older run) says so on the page, and the total is a lower bound
    (tmp_path / "default/luck/spent.json").unlink()
    st.run_study(st.with_overrides(tiny(), levels="random,beginner"), tmp_path)
    page = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "luck not recorded" in page and "CPU time: at least" in page


def test_an_unknown_study_is_refused_with_the_names() -> None:
    with pytest.raises(ConfigError, match="polis-sieges"):
        st.get_study("nope")


def test_italian_figures_take_a_decimal_comma_and_words_stay() -> None:
    assert st._it("| 12.5% [1.0, 2.25] | +0.00 |") == "| 12,5% [1,0, 2,25] | +0,00 |"
    assert st._it("p corretto 0.034; mcts:easy") == "p corretto 0,034; mcts:easy"
