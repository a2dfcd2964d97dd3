"""Findings and warnings on synthetic summaries: every warning rule fires when it should and stays silent on a
sound comparison; the findings read in English and Italian with effect size, interval and test; the games
needed for a 5-point change; the report opens with findings and warnings and ends with the methods."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hegemon.cli import app
from hegemon.lab import stats
from hegemon.lab.findings import annotate, findings, games_for_change, measure_name, variant_name, warnings
from hegemon.lab.report import render_html


def rate(s: float, n: int) -> dict[str, Any]:
    return stats.rate(s, n)


def variant(
    v: int,
    label: str,
    options: dict[str, Any],
    n: int = 200,
    *,
    athens: float = 0.5,
    strong: float = 0.7,
    final: float = 0.9,
    sieges: float = 2.0,
    capped: float = 0.0,
) -> dict[str, Any]:
    a = round(athens * n)
    ends = {"end_of_rounds": rate(round(final * n), n)}
    if final < 1:
        ends["prestige"] = rate(n - round(final * n), n)
    if capped:
        ends = {"round_limit": rate(round(capped * n), n), "vp_target": rate(n - round(capped * n), n)}
    return {
        "variant": v,
        "label": label,
        "options": options,
        "games": n,
        "seat_win_rate": [rate(a, n), rate(n - a, n)],
        "first_player_win_rate": rate(n // 2, n),
        "bot_win_rate": [
            {"bot": "mcts:normal", **rate(round(strong * n), n)},
            {"bot": "greedy", **rate(n - round(strong * n), n)},
        ],
        "luck_vs_skill": [
            {
                "pair": 0,
                "bots": ["mcts:normal", "greedy"],
                "stronger": "mcts:normal",
                "weaker": "greedy",
                "rank_gap": 1,
                "skill_rate": rate(round(strong * n), n),
                "dice_share": {"icc": 0.1},
            }
        ],
        "length": {
            "turns_or_rounds": stats.mean_ci([4.0, 4.0, 3.0]),
            "actions": stats.mean_ci([300.0, 320.0]),
        },
        "endings": ends,
        "end_reasons": {"final": rate(round(final * n), n), "ostracism": rate(n - round(final * n), n)},
        "measures": {
            "sieges_succeeded": {"mean": sieges, "low": sieges - 0.2, "high": sieges + 0.2, "n": n},
            "pp_on_sieges": {"mean": 3.0, "low": 2.8, "high": 3.2, "n": n},
        },
        "curves": {},
    }


def comparison(
    v: int,
    label: str,
    *,
    d_sieges: float = -1.2,
    p_sieges: float = 1e-5,
    d_seat: float = 0.0,
    p_seat: float = 0.9,
    n: int = 200,
) -> dict[str, Any]:
    return {
        "variant": v,
        "label": label,
        "baseline": "siege=classic",
        "paired_games": n,
        "skill_rate": [
            {
                "pair": 0,
                "stronger": "mcts:normal",
                "diff": 0.01,
                "low": -0.05,
                "high": 0.07,
                "test": "paired_cluster_t",
                "p_value": 0.8,
                "only_first": 4,
                "only_second": 5,
                "pairs": n,
            }
        ],
        "seat_win_rate": [
            {
                "seat": j,
                "diff": (-d_seat if j == 0 else d_seat),
                "low": -0.06 + (d_seat if j else -d_seat),
                "high": 0.06 + (d_seat if j else -d_seat),
                "test": "paired_cluster_t",
                "p_value": p_seat,
                "only_first": 3,
                "only_second": 3,
                "pairs": n,
            }
            for j in range(2)
        ],
        "length": {
            "test": "paired_cluster_t",
            "diff": 0.0,
            "low": -0.1,
            "high": 0.1,
            "p_value": 0.7,
            "pairs": n,
        },
        "measures": {
            "sieges_succeeded": {
                "test": "paired_cluster_t",
                "diff": d_sieges,
                "low": d_sieges - 0.3,
                "high": d_sieges + 0.3,
                "p_value": p_sieges,
                "pairs": n,
            },
            "pp_on_sieges": {
                "test": "paired_cluster_t",
                "diff": 0.05,
                "low": -0.2,
                "high": 0.3,
                "p_value": 0.6,
                "pairs": n,
            },
        },
    }


def summary(
    variants: list[dict[str, Any]], comparisons: list[dict[str, Any]], game: str = "polis"
) -> dict[str, Any]:
    return {
        "game": game,
        "kind": "compare",
        "bots": ["mcts:normal", "greedy"],
        "pairs": [["mcts:normal", "greedy"]],
        "seed": 1,
        "players": 2,
        "games": sum(v["games"] for v in variants),
        "games_planned": 0,
        "cpu_seconds": 1.0,
        "variants": variants,
        "comparisons": comparisons,
        "tournament": None,
    }


def sound() -> dict[str, Any]:
    return summary(
        [
            variant(0, "siege=classic", {"siege": "classic"}, sieges=2.3),
            variant(1, "siege=diceless_sacrifice", {"siege": "diceless_sacrifice"}, sieges=1.1),
        ],
        [comparison(1, "siege=diceless_sacrifice")],
    )


def codes(s: dict[str, Any]) -> list[str]:
    return [c for c, _ in warnings(s)]


def test_a_sound_comparison_has_no_warnings() -> None:
    s = annotate(sound())
    assert s["warnings"] == [] and s["warnings_it"] == [] and s["warning_codes"] == []


def test_findings_in_english_carry_effect_interval_and_test() -> None:
    f = findings(sound(), "en")
    change = next(x for x in f if x.startswith("Diceless Sacrifice against Classic"))
    assert "sieges taken per game 2.30 → 1.10" in change
    assert "−52%" in change and "95% CI −1.50 to −0.90" in change
    # every finding goes by its p-value adjusted with the report's others (Holm, over 6 tests here)
    assert "paired t-test clustered by deal, Holm-adjusted p < 0.001" in change
    assert "Sparta's win rate 50.0% → 50.0% (+0.0 points" in change and "Holm-adjusted p = 1)" in change
    assert change.endswith("no clear change.")
    assert "prestige spent" not in change  # p = 0.6: not reported as a change
    assert any(
        x.startswith("Classic: Athens' win rate is 50.0%") and "consistent with an even game" in x for x in f
    )
    assert any(x.startswith("mcts:normal beats greedy in 70.0% of games (95% CI") for x in f)


def test_findings_in_italian() -> None:
    f = findings(sound(), "it")
    change = next(x for x in f if x.startswith("Sacrificio senza dadi rispetto a Classico"))
    assert "assedi riusciti per partita 2,30 → 1,10" in change
    assert "IC 95% −1,50 a −0,90" in change
    assert "test t appaiato raggruppato per distribuzione, corretto (Holm) p < 0,001" in change
    assert "il tasso di vittoria di Sparta 50,0% → 50,0%" in change
    assert change.endswith("nessun cambiamento chiaro.")
    assert any("Atene" in x and "compatibile con un gioco equilibrato" in x for x in f)
    assert any("mcts:normal batte greedy nel 70,0% delle partite" in x for x in f)


def test_a_clear_side_change_is_stated_without_hedge() -> None:
    s = summary(
        [
            variant(0, "siege=classic", {"siege": "classic"}),
            variant(1, "siege=sacrifice", {"siege": "sacrifice"}),
        ],
        [comparison(1, "siege=sacrifice", d_seat=0.12, p_seat=0.001)],
    )
    change = findings(s)[-1]
    assert (
        "Sparta's win rate 50.0% → 62.0% (+12.0 points" in change
        and "no clear change" not in change.split(";")[-1]
    )
    uneven = summary([variant(0, "siege=classic", {"siege": "classic"}, athens=0.2)], [])
    assert "an even game would give 50.0%" in findings(uneven)[0] and "Sparta" in findings(uneven)[0]


def test_warning_one_bot_wins_almost_everything() -> None:
    s = sound()
    for v in s["variants"]:
        v["bot_win_rate"][0] = {"bot": "greedy", **rate(196, 200)}
    w = warnings(s)
    assert codes(s) == ["dominant_bot"]
    assert "Classic and Diceless Sacrifice: greedy wins 98.0% of its games" in w[0][1]
    assert "greedy vince il 98,0%" in warnings(s, "it")[0][1]


def test_warning_most_games_end_before_the_last_round() -> None:
    s = sound()
    s["variants"][1] = variant(1, "siege=diceless_sacrifice", {"siege": "diceless_sacrifice"}, final=0.3)
    w = dict(warnings(s))
    assert list(w) == ["short_games"]
    assert w["short_games"].startswith(
        "Diceless Sacrifice: 70.0% of games end before the last round (ostracism 70.0%)"
    )
    s["variants"][1] = variant(1, "siege=diceless_sacrifice", {"siege": "diceless_sacrifice"}, final=0.6)
    assert codes(s) == []


def test_warning_games_cut_by_the_round_limit() -> None:
    s = summary(
        [
            variant(0, "rules=house-1.2", {"rules": "house-1.2"}, capped=0.8),
            variant(1, "rules=official", {"rules": "official"}, capped=0.2),
        ],
        [comparison(1, "rules=official")],
        game="spqrisiko",
    )
    assert (
        codes(s) == ["capped_games"] and "House rules 1.2: 80.0% of games were cut short" in warnings(s)[0][1]
    )


def test_warning_the_switch_hardly_happens() -> None:
    s = sound()
    s["variants"][1]["measures"]["sieges_succeeded"]["mean"] = 0.02
    w = warnings(s)
    assert codes(s) == ["variant_measure_zero"]
    assert "Diceless Sacrifice: sieges taken per game is 0.02" in w[0][1] and "siege switch" in w[0][1]
    # a switch the measure is not about: no warning
    s["variants"][0]["options"] = s["variants"][1]["options"] = {"board": "x"}
    s["variants"][1]["options"] = {"board": "y"}
    assert "variant_measure_zero" not in codes(s)


def test_warning_a_seat_wins_far_more_often() -> None:
    s = sound()
    for v in s["variants"]:
        v["seat_win_rate"] = [rate(40, 200), rate(160, 200)]
    w = dict(warnings(s))
    assert list(w) == ["seat_imbalance"]
    assert "Classic and Diceless Sacrifice: Sparta wins 80.0% of games" in w["seat_imbalance"]
    for v in s["variants"]:
        v["seat_win_rate"] = [rate(85, 200), rate(115, 200)]  # 57.5%: uneven but not far
    assert codes(s) == []


def test_warning_too_few_games_to_separate() -> None:
    small = summary(
        [
            variant(0, "siege=classic", {"siege": "classic"}, n=20),
            variant(1, "siege=diceless", {"siege": "diceless"}, n=20),
        ],
        [comparison(1, "siege=diceless", p_sieges=0.3, n=20)],
    )
    w = dict(warnings(small))
    assert list(w) == ["too_few_games"]
    assert w["too_few_games"].startswith("20 games per variant: no difference from the baseline is clear")
    assert "5-point change in Athens' win rate needs about 1565 games" in w["too_few_games"]
    # a clear difference, or enough games: no warning
    small["comparisons"][0]["measures"]["sieges_succeeded"]["p_value"] = 0.001
    assert codes(small) == []


def test_games_needed_for_a_five_point_change() -> None:
    assert games_for_change(0.5) == 1565
    assert games_for_change(0.9) == 686  # toward 1/2: 0.90 → 0.85
    assert games_for_change(0.0) == games_for_change(1.0) > 0
    need = annotate(sound())["games_needed"]
    assert [x["rate"] for x in need] == ["seat", "first_player", "skill"]
    assert need[0]["name"] == "Athens' win rate" and need[0]["games"] == 1565


def test_names_in_both_languages() -> None:
    assert measure_name("sieges_succeeded") == "sieges taken per game"
    assert measure_name("sieges_succeeded", "it") == "assedi riusciti per partita"
    assert measure_name("unknown_thing") == "unknown thing"
    s = sound()
    assert variant_name(s, 1) == "Diceless Sacrifice" and variant_name(s, 1, "it") == "Sacrificio senza dadi"


@pytest.mark.parametrize("lang", ["en", "it"])
def test_report_opens_with_findings_and_warnings_and_ends_with_methods(lang: str) -> None:
    s = sound()
    s["variants"][1]["measures"]["sieges_succeeded"]["mean"] = 0.0
    annotate(s)
    page = render_html(s, lang)
    f, w, first_table, methods = (
        page.index(x) for x in ("id='findings'", "id='warnings'", "<table", "id='methods'")
    )
    assert f < w < first_table < methods
    if lang == "en":
        assert (
            "sieges taken per game 2.30 → 0.00" not in page
        )  # the finding uses the comparison, not the mean
        assert "Diceless Sacrifice: sieges taken per game is 0.00" in page and "Games needed" in page
    else:
        assert "Risultati principali" in page and "assedi riusciti per partita vale 0,00" in page
        assert "Partite necessarie" in page and "lang='it'" in page


def test_cli_report_in_italian_and_a_bad_language_refused(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "lab",
            "compare",
            "polis",
            "--bots",
            "greedy,random",
            "--games",
            "2",
            "--seed",
            "3",
            "--option",
            "siege=classic,diceless",
            "--out",
            str(tmp_path),
            "--lang",
            "it",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "Risultati principali" in res.stdout and "Avvertenze" in res.stdout
    page = (tmp_path / "report.html").read_text()
    assert "lang='it'" in page and "Senza dadi" in page
    res = runner.invoke(app, ["lab", "report", str(tmp_path), "--json"])
    assert res.exit_code == 0 and "lang='en'" in (tmp_path / "report.html").read_text()
    summary = json.loads(res.stdout)
    assert summary["findings"] and summary["findings_it"] and isinstance(summary["warnings"], list)
    res = runner.invoke(app, ["lab", "report", str(tmp_path), "--lang", "fr"])
    assert res.exit_code == 2 and "--lang must be en or it" in res.stderr


def test_the_same_bot_twice_has_no_skill_finding() -> None:
    s = sound()
    for v in s["variants"]:
        v["luck_vs_skill"][0]["stronger"] = v["luck_vs_skill"][0]["weaker"] = "greedy"
    assert not any("beats" in f for f in findings(s))
    assert not any("batte" in f for f in findings(s, "it"))
    assert [x["rate"] for x in annotate(s)["games_needed"]] == ["seat", "first_player"]
