"""Every per-game measure recomputed independently from a replayed record, statistics at the extremes (0/n
and n/n), a comparison where one bot always wins, and the `selfplay` summary's lengths and caps."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hegemon.ai import make_bot
from hegemon.cli import app
from hegemon.core.game import CHANCE, TERMINAL
from hegemon.core.play import derive_seed, sample_chance
from hegemon.core.record import GameRecord
from hegemon.games import get_game
from hegemon.lab import stats
from hegemon.lab.measures import measures_for
from hegemon.lab.run import make_sweep, run_sweep
from hegemon.lab.sweep import plan_units, play_unit

SIEGE_KINDS = {
    "besiege",
    "siege_roll",
    "start_siege",
    "continue_siege",
    "force_siege",
    "stop_forcing",
    "garrison",
}
RULES = ("classic", "sacrifice", "diceless", "diceless_sacrifice")


# --------------------------------------------------------------------------- statistics at the extremes


@pytest.mark.parametrize("n", [1, 7, 40, 250, 1000])
def test_wilson_is_exact_at_zero_and_all(n: int) -> None:
    lo, hi = stats.wilson(0, n)
    assert lo == 0.0 and 0 < hi < 1
    lo, hi = stats.wilson(n, n)
    assert hi == 1.0 and 0 < lo < 1
    for s in (0, n / 2, n):
        r = stats.rate(s, n)
        assert 0.0 <= r["low"] <= r["rate"] <= r["high"] <= 1.0


def test_paired_difference_interval_holds_the_estimate_at_the_extremes() -> None:
    deals = [i // 2 for i in range(30)]
    for diffs in ([1.0] * 30, [-1.0] * 30, [0.0] * 30, [1.0, 0.0] * 15, [0.5, -1.0, 0.0] * 10):
        e = stats.paired(diffs, deals)
        assert -1.0 <= e["low"] <= e["diff"] <= e["high"] <= 1.0 and 0.0 <= e["p_value"] <= 1.0


def test_compare_with_a_bot_that_always_wins_writes_its_summary(tmp_path: Path) -> None:
    """greedy beats random in every game (skill rate 100%): the summary and the report's error bars are
    written, and the CLI exits 0."""
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
            "6",
            "--seed",
            "2",
            "--option",
            "siege=classic,diceless",
            "--out",
            str(tmp_path),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    skill = summary["variants"][0]["luck_vs_skill"][0]["skill_rate"]
    assert skill["rate"] == 1.0 and skill["high"] == 1.0
    assert (tmp_path / "report.html").read_text().count("data:image/png;base64,") >= 3


# --------------------------------------------------------------------------- Polis measures from a replay


class SiegeFirst:
    """A test agent: any siege step when one is legal (forcing included), otherwise greedy — so that every
    siege rule's actions occur in a short game."""

    def __init__(self, seed: int) -> None:
        self.greedy = make_bot("greedy", seed)

    def choose(self, state: Any, player: int) -> Any:
        acts = state.legal_actions()
        for kind in ("force_siege", "continue_siege", "start_siege", "besiege", "garrison"):
            for a in acts:
                if a.kind == kind:
                    return a
        return self.greedy.choose(state, player)


def play_measured(rule: str, seed: int) -> tuple[GameRecord, dict[str, Any]]:
    """One Polis game with the lab's measure hooks (as `play_unit` runs them); its record and measures."""
    game = get_game("polis")
    opts = game.parse_options({"siege": rule})
    bots = [SiegeFirst(derive_seed("t", seed, j)) for j in range(2)]
    rng = random.Random(derive_seed("chance", seed))
    state = game.new_game(opts, seed)
    measures = measures_for("polis")
    actions = []
    while len(actions) < game.max_actions(opts):
        p = state.current_player()
        if p == TERMINAL:
            break
        action = sample_chance(state, rng) if p == CHANCE else bots[p].choose(state, p)
        token = measures.before(state, action)
        state.apply(action)
        measures.after(state, action, token)
        actions.append(action.to_json())
    rec = GameRecord(
        game="polis",
        version=game.version,
        options=opts.to_json(),
        seed=seed,
        actions=actions,
        seats=["t", "t"],
        outcome=None,
        digest="",
    )
    return rec, measures.result(state)


def recompute_polis(rec: GameRecord) -> dict[str, Any]:
    """The siege measures from state differences around each action of the replay — without the lab's
    bookkeeping: PP spent = what the besieger's prestige lost over the siege's steps plus the F it gained for
    each polis taken (so the diceless net F − 1 counts as 1 PP spent)."""
    game = get_game("polis")
    state = game.new_game(game.parse_options(rec.options), rec.seed)
    fort = state.board.p_fort
    out = dict.fromkeys(
        (
            "sieges_attempted",
            "siege_actions",
            "sieges_succeeded",
            "sieges_forced",
            "pp_on_sieges",
            "hoplites_on_sieges",
            "hoplites_garrisoned",
        ),
        0,
    )
    prev_kind = ""
    first = None
    for raw in rec.actions:
        action = game.decode_action(raw)
        kind = action.kind
        if first is None and state.current_player() >= 0:
            first = state.current_player()
        m = state.active
        owners, pp, units = list(state.owner), state.pp[m], sum(state.units[m])
        state.apply(action)
        if kind in SIEGE_KINDS:
            taken = [q for q, o in enumerate(state.owner) if o == m and owners[q] != m]
            out["sieges_attempted"] += kind in ("besiege", "start_siege")
            out["siege_actions"] += kind in ("besiege", "start_siege", "continue_siege")
            out["sieges_succeeded"] += len(taken)
            out["sieges_forced"] += kind == "force_siege" and prev_kind != "force_siege"
            out["pp_on_sieges"] += pp - state.pp[m] + sum(fort[q] for q in taken)
            lost = units - sum(state.units[m])
            out["hoplites_garrisoned" if kind == "garrison" else "hoplites_on_sieges"] += max(0, lost)
        prev_kind = kind
    out["rounds"] = state.round + 1
    out["end_reason"] = state.end_reason
    out["first_player"] = first
    out["final_prestige"] = list(state.pp)
    return out


@pytest.mark.parametrize("rule", RULES)
def test_polis_siege_measures_recomputed_from_the_replay(rule: str) -> None:
    seen = dict.fromkeys(("sieges_attempted", "sieges_succeeded", "pp_on_sieges", "hoplites_on_sieges"), 0)
    for seed in (1, 2, 3):
        rec, measured = play_measured(rule, seed)
        again = recompute_polis(rec)
        for name in (
            "sieges_attempted",
            "siege_actions",
            "sieges_succeeded",
            "sieges_forced",
            "pp_on_sieges",
            "hoplites_on_sieges",
            "hoplites_garrisoned",
            "rounds",
            "end_reason",
            "first_player",
        ):
            assert measured[name] == again[name], (rule, seed, name)
        assert measured["curves"]["prestige"][-1] == again["final_prestige"]
        assert len(measured["curves"]["population"]) == len(measured["curves"]["prestige"]) >= again["rounds"]
        for k in seen:
            seen[k] += measured[k]
    if rule == "diceless":
        assert seen.pop("hoplites_on_sieges") == 0  # discs cost no hoplites (only a garrison does)
    assert all(v > 0 for v in seen.values()), seen  # the rule's sieges did happen
    if rule == "diceless":
        # the engine charges 1 PP for each diceless capture (F − 1 awarded): at least one per success
        assert seen["pp_on_sieges"] >= seen["sieges_succeeded"]


def test_polis_sacrifice_forcing_is_measured() -> None:
    forced = sum(
        play_measured(rule, seed)[1]["sieges_forced"]
        for rule in ("sacrifice", "diceless_sacrifice")
        for seed in (1, 2, 3)
    )
    assert forced > 0


# --------------------------------------------------------------------------- S.P.Q.RisiKo! measures from a replay


def test_spqrisiko_measures_recomputed_from_the_replay() -> None:
    sw = make_sweep("spqrisiko", "compare", ["random", "random"], 4, 5, ["rules=official,house-1.2"])
    game = get_game("spqrisiko")
    for unit in plan_units(sw)[:4]:
        rec = play_unit(sw, unit)
        m = rec["meta"]["measures"]
        state = game.new_game(game.parse_options(rec["options"]), rec["seed"])
        vp_by_turn = 0
        first = None
        kinds: dict[str, int] = {}
        for raw in rec["actions"]:
            a = game.decode_action(raw)
            kinds[a.kind] = kinds.get(a.kind, 0) + 1
            before = state.turns
            state.apply(a)
            if a.kind == "order":
                first = state.order[0]
            if state.turns != before:
                vp_by_turn += sum(state.vp_last.values())
        assert m["rounds"] == state.round and m["turns"] == state.turns
        assert m["eliminations"] == sum(state.eliminated)
        assert (m["sea_attacks"], m["naval_attacks"], m["naval_moves"]) == (
            kinds.get("sea_attack", 0),
            kinds.get("naval_attack", 0),
            kinds.get("naval_move", 0),
        )
        assert m["first_player"] == first
        total = sum(m[f"vp_{k}"] for k in ("empire", "provinces", "seas", "power_centres"))
        assert total == vp_by_turn == sum(state.vp)
        assert m["curves"]["vp"][-1] == list(state.vp)
        owned = [sum(1 for o in state.owner if o == j) for j in range(state.n)]
        assert m["curves"]["provinces"][-1] == owned


# --------------------------------------------------------------------------- selfplay summary


def test_polis_selfplay_summary_counts_real_caps_and_reports_rounds_and_decisions() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["selfplay", "polis", "--games", "3", "--bots", "greedy", "--json"])
    assert res.exit_code == 0, res.output
    s = json.loads(res.stdout)
    # greedy games play the four rounds to the end: a normal end, not a cap
    assert s["terminations"].get("end_of_rounds", 0) >= 1
    assert s["capped_games"] == s["terminations"].get("action_limit", 0) + s["terminations"].get(
        "round_limit", 0
    )
    assert 1 <= s["mean_rounds"] <= 4 and s["mean_decisions"] > 20
    assert s["mean_turns"] is None
    res = runner.invoke(app, ["selfplay", "polis", "--games", "2", "--bots", "greedy"])
    assert res.exit_code == 0 and "rounds: mean" in res.stdout and "decisions: mean" in res.stdout


def test_spqrisiko_selfplay_counts_the_round_limit_as_a_cap() -> None:
    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "selfplay",
            "spqrisiko",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "4",
            "--option",
            "max_rounds=2",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    s = json.loads(res.stdout)
    assert s["terminations"] == {"round_limit": 2} and s["capped_games"] == 2
    assert s["mean_rounds"] >= 2 and s["mean_turns"] >= 6


def test_run_sweep_summary_keeps_intervals_inside_zero_one(tmp_path: Path) -> None:
    summary = run_sweep(
        make_sweep("polis", "compare", ["greedy", "random"], 4, 9, ["siege=classic,sacrifice"]), tmp_path
    )
    for v in summary["variants"]:
        for r in v["seat_win_rate"] + [e["skill_rate"] for e in v["luck_vs_skill"]]:
            assert 0.0 <= r["low"] <= r["rate"] <= r["high"] <= 1.0
