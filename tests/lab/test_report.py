"""The HTML report from its Jinja2 template: hostile text is escaped, findings and warnings come first and the
methods last in both languages, the template ships with the package; how games end and the first player's
rate are summarised, compared on paired games and stated in the findings; a preset switch (S.P.Q.RisiKo!'s
`rules`) varied with its own switches plays the preset as published."""

from __future__ import annotations

import html
import re
from importlib import resources
from typing import Any

import pytest

from hegemon.lab.findings import annotate, findings
from hegemon.lab.report import render_html, summarise
from hegemon.lab.run import make_sweep, plan_variants
from hegemon.lab.sweep import Sweep

from .test_findings import comparison, sound, summary, variant

HOSTILE = "<img src=x onerror=alert(1)>&\"'"


def test_the_template_ships_with_the_package() -> None:
    tpl = resources.files("hegemon.lab").joinpath("templates/report.html.j2")
    assert tpl.is_file() and "autoescaped" in tpl.read_text(encoding="utf-8").lower()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_hostile_variant_and_bot_names_are_escaped(lang: str) -> None:
    s = summary(
        [
            variant(0, "siege=classic", {"siege": "classic"}),
            variant(1, f"siege={HOSTILE}", {"siege": HOSTILE}),
        ],
        [comparison(1, f"siege={HOSTILE}")],
    )
    s["bots"] = ["greedy", f"mcts:{HOSTILE}"]
    for v in s["variants"]:
        v["bot_win_rate"][1]["bot"] = HOSTILE
    annotate(s)
    assert any(HOSTILE in f for f in s["findings"])  # the name reaches the findings as plain text
    page = render_html(s, lang)
    assert "<img src=x" not in page and "onerror=alert(1)>" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;&amp;" in page
    # every tag in the page is one of the template's own
    tags = set(re.findall(r"<([a-z0-9]+)", page))
    assert tags <= {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h2",
        "h3",
        "p",
        "ul",
        "li",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "details",
        "summary",
        "pre",
        "b",
        "img",
    }
    assert all(src.startswith("data:image/png;base64,") for src in re.findall(r"<img src='([^']*)'", page))


@pytest.mark.parametrize("lang", ["en", "it"])
def test_findings_first_then_results_then_methods(lang: str) -> None:
    s = annotate(sound())
    page = render_html(s, lang)
    assert page.startswith("<!doctype html>") and f"<html lang='{lang}'>" in page
    order = [page.index(x) for x in ("id='findings'", "id='warnings'", "<table", "id='methods'", "<details>")]
    assert order == sorted(order)
    head = "Findings" if lang == "en" else "Risultati principali"
    methods = "Holm's method</b> (6 tests)" if lang == "en" else "metodo di Holm</b> (6 test)"
    assert head in page and methods in page.split("id='methods'")[1]
    # the findings appear in the summary's order, one list item each
    items = re.findall(
        r"<li>(.*?)</li>", page.split("id='findings'")[1].split("id='warnings'")[0], flags=re.S
    )
    key = "findings_it" if lang == "it" else "findings"
    assert [html.unescape(i) for i in items] == s[key]
    # the methods' own markup is kept, not escaped
    assert "<b>" in page.split("id='methods'")[1] and "&lt;b&gt;" not in page


def _records(endings: list[str], variant_no: int, first_wins: int) -> list[dict[str, Any]]:
    """Synthetic 4-player records of one variant: game i ends as `endings[i]`; the first player (seat i % 4)
    wins the first `first_wins` games, seat (i + 1) % 4 the others."""
    out = []
    for i, term in enumerate(endings):
        deal, rot = divmod(i, 2)
        fp = i % 4
        winner = fp if i < first_wins else (fp + 1) % 4
        out.append(
            {
                "seats": ["mcts:10"] * 4,
                "seed": deal,
                "outcome": {
                    "termination": term,
                    "winners": [winner],
                    "scores": [0, 0, 0, 0],
                    "ranking": [winner],
                },
                "meta": {
                    "key": f"{variant_no}/0/{deal}/{rot}",
                    "variant": variant_no,
                    "pair": 0,
                    "deal": deal,
                    "rotation": rot,
                    "decisions": 10,
                    "actions": 20,
                    "seconds": 0.1,
                    "measures": {"first_player": fp, "rounds": 12, "turns": 48, "eliminations": 0},
                },
            }
        )
    return out


def test_endings_and_first_player_compared_and_in_the_findings() -> None:
    sweep = Sweep(
        game="spqrisiko",
        kind="compare",
        bots=["mcts:10", "mcts:10"],
        pairs=[[0, 1]],
        variants=[{"rules": "house-1.2"}, {"rules": "official"}],
        labels=["rules=house-1.2", "rules=official"],
        deals=40,
    )
    n = 80
    recs = _records(["vp_target"] * n, 0, first_wins=20) + _records(
        ["round_limit"] * 30 + ["vp_target"] * (n - 30), 1, first_wins=50
    )
    s = summarise(recs, sweep)
    base, off = s["variants"]
    assert base["endings"]["vp_target"]["rate"] == 1.0 and off["endings"]["round_limit"]["rate"] == 30 / 80
    assert base["first_player_win_rate"]["rate"] == 0.25 and off["first_player_win_rate"]["rate"] == 50 / 80
    ends = s["comparisons"][0]["endings"]
    assert ends["round_limit"]["diff"] == pytest.approx(30 / 80) and ends["round_limit"]["p_value"] < 0.001
    assert ends["round_limit"]["test"] == "paired_cluster_t"
    en, it = s["findings"], s["findings_it"]
    assert any(
        f.startswith("House rules 1.2: the first player wins 25.0% of games (95% CI")
        and "consistent with an even share (25.0%)" in f
        for f in en
    )
    assert any(
        f.startswith("House rules 1.2: every game ends by the VP target 100.0% (95% CI 95.4% to 100.0%)")
        for f in en
    )
    assert any(
        f.startswith("Regole della casa 1.2: ogni partita finisce per obiettivo di punti vittoria 100,0%")
        for f in it
    )
    change = next(f for f in en if f.startswith("Official rules against House rules 1.2"))
    assert "games ending by the round limit 0.0% → 37.5% (+37.5 points" in change
    assert "the first player's win rate 25.0% → 62.5% (+37.5 points" in change
    change_it = next(f for f in it if f.startswith("Regolamento ufficiale rispetto a Regole della casa 1.2"))
    assert "partite finite per limite di round 0,0% → 37,5%" in change_it
    assert "il tasso di vittoria del primo giocatore 25,0% → 62,5%" in change_it
    # a variant that ends like the baseline: no comparison of endings at all
    same = summarise(_records(["vp_target"] * n, 0, 20) + _records(["vp_target"] * n, 1, 20), sweep)
    assert "endings" not in same["comparisons"][0]
    page = render_html(s, "en")
    assert "games ending by: round_limit" in page


def test_a_baseline_with_several_endings_says_how_games_end() -> None:
    f = findings(annotate(sound()))
    line = next(x for x in f if "games end by" in x)
    assert line.startswith("Classic: games end by the end of the last round 90.0% (95% CI")
    assert "and prestige 10.0%" in line and line.endswith("Wilson, 200 games.")


def test_a_preset_switch_plays_the_preset() -> None:
    variants, labels = plan_variants(
        [("rules", ["house-1.2", "official"]), ("naval_move", ["per_trireme", "single_group"])],
        "rules",
        {"official": {"naval_move": "single_group", "garrison": "move_in_first"}},
    )
    assert labels[1:] == ["rules=official", "naval_move=single_group"]
    assert variants[1] == {"rules": "official"}  # not the official set with the baseline's house naval move
    assert variants[2] == {"rules": "house-1.2", "naval_move": "single_group"}
    sweep = make_sweep(
        "spqrisiko",
        "compare",
        ["random", "random"],
        2,
        options=["rules=house-1.2,official", "garrison=garrison_stop,move_in_first"],
    )
    from hegemon.games import get_game

    opts = get_game("spqrisiko").parse_options(sweep.options(1))
    assert (opts.rules, opts.garrison, opts.naval_move) == ("official", "move_in_first", "single_group")
    assert get_game("spqrisiko").parse_options(sweep.options(0)).garrison == "garrison_stop"


def test_several_switches_name_the_baseline_once() -> None:
    base = variant(0, "baseline (siege=classic, seed_cards=on)", {"siege": "classic", "seed_cards": "on"})
    s = summary(
        [base, variant(1, "siege=diceless", {"siege": "diceless", "seed_cards": "on"})],
        [comparison(1, "siege=diceless")],
    )
    en, it = findings(s, "en"), findings(s, "it")
    assert en[0].startswith("Baseline (Classic, seed_cards=on): Athens' win rate is 50.0%")
    assert any(f.startswith("Diceless against the baseline: sieges taken per game") for f in en)
    assert any(f.startswith("Senza dadi rispetto al riferimento:") for f in it)
