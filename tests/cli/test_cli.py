"""The command line as a user runs it: self-play, replay and verify, odds, rules, terminal play."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from hegemon.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_selfplay_json_summary_and_byte_identical_records(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code, out, _ = run(
        "selfplay",
        "spqrisiko",
        "--players",
        "3",
        "--games",
        "4",
        "--seed",
        "1",
        "--bots",
        "random",
        "--jsonl",
        str(a),
        "--json",
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 4 and len(summary["wins_per_seat"]) == 3
    assert abs(sum(summary["wins_per_seat"]) - 4) < 1e-9
    assert summary["mean_turns"] > 0 and summary["median_turns"] > 0
    assert sum(summary["terminations"].values()) == 4
    code, _, _ = run(
        "selfplay",
        "spqrisiko",
        "--players",
        "3",
        "--games",
        "4",
        "--seed",
        "1",
        "--bots",
        "random",
        "--jsonl",
        str(b),
        "--json",
    )
    assert code == 0
    assert a.read_bytes() == b.read_bytes()
    assert len(a.read_text().splitlines()) == 4


def test_replay_verify_passes_and_fails_on_a_tampered_record(tmp_path: Path) -> None:
    rec = tmp_path / "r.jsonl"
    assert run("selfplay", "spqrisiko", "--games", "2", "--seed", "5", "--jsonl", str(rec), "--json")[0] == 0
    code, out, _ = run("replay", str(rec), "--verify", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    lines = rec.read_text().splitlines()
    obj = json.loads(lines[1])
    obj["actions"] = obj["actions"][:-5]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps(obj) + "\n")
    code, out, _ = run("replay", str(bad), "--verify", "--json")
    assert code == 1
    result = json.loads(out)
    assert result["ok"] is False and result["mismatches"][0]["game"] == 2
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_text("{not json\n")
    code, _, err = run("replay", str(corrupt), "--verify")
    assert code == 2 and "corrupt.jsonl:1" in err and "Traceback" not in err


def test_replay_steps_through_one_game_turn_by_turn(tmp_path: Path) -> None:
    rec = tmp_path / "r.jsonl"
    run("selfplay", "spqrisiko", "--games", "2", "--seed", "3", "--jsonl", str(rec), "--json")
    code, out, _ = run("replay", str(rec), "--game", "2", "--no-step")
    assert code == 0
    assert "game 2" in out and "round" in out and out.count("after ") > 10
    code, _, err = run("replay", str(rec), "--game", "9")
    assert code == 2 and "--game must be from 1 to 2" in err


def test_odds_json_gives_fractions_and_decimals() -> None:
    code, out, _ = run("odds", "spqrisiko", "9", "10", "--rules", "official", "--json")
    assert code == 0
    data = json.loads(out)
    num, den = map(int, data["p_win"]["fraction"].split("/"))
    assert abs(num / den - data["p_win"]["decimal"]) < 1e-12
    assert abs(sum(r["probability"] for r in data["outcomes"]) - 1) < 1e-9
    assert "legionaries on the attacking province" in data["counts"]
    code, out, _ = run("odds", "spqrisiko", "9", "10", "--sea", "--declared", "6", "--stop-at", "2", "--json")
    assert code == 0
    sea = json.loads(out)
    assert sea["kind"] == "sea" and sea["notes"]
    code, _, err = run("odds", "spqrisiko", "9", "10", "--sea", "--declared", "9")
    assert code == 2 and "--declared must be from 1 to 8" in err


def test_odds_frontier_follows_the_garrison_reading() -> None:
    # house-1.2 default: official dice, the attack stops at 2; house-strict: two never roll
    code, out, _ = run("odds", "spqrisiko", "4", "3", "--frontier", "--json")
    assert code == 0
    data = json.loads(out)
    assert (
        data["inputs"] == {"attacker": 4, "defender": 3, "stop_at": 2, "keep": 1} and data["attack_possible"]
    )
    code, out, _ = run("odds", "spqrisiko", "4", "3", "--frontier", "--garrison", "garrison_first", "--json")
    assert code == 0 and json.loads(out)["attack_possible"] is False
    code, _, err = run("odds", "spqrisiko", "4", "3", "--garrison", "both")
    assert code == 2 and "garrison" in err


def test_rules_lists_options_rule_sets_and_refuses_unknown_games() -> None:
    code, out, _ = run("rules", "spqrisiko", "--json")
    assert code == 0
    data = json.loads(out)
    names = {o["name"] for o in data["options"]}
    assert {"rules", "neutrals", "naval_move", "garrison", "first_elimination_round", "random_deal"} <= names
    assert data["rule_sets"]["official"]["naval_move"] == "single_group"
    assert data["boards"] == ["default"]  # every game names its shipped boards, the default first
    code, out, _ = run("rules", "polis", "--json")
    assert code == 0 and json.loads(out)["boards"] == ["default", "balanced"]
    code, out, _ = run("rules", "polis")
    assert "boards that come with the game (--board NAME): default, balanced" in out
    code, _, err = run("rules", "chess")
    assert code == 2 and "known games" in err


def test_play_answers_bad_input_with_a_message_and_the_same_prompt() -> None:
    code, out, err = run(
        "play",
        "spqrisiko",
        "--players",
        "3",
        "--seats",
        "human,random,random",
        "--seed",
        "7",
        input='banana\n999\n{"type": "attack"}\nquit\n',
    )
    assert "Traceback" not in out + err
    assert "no legal action matches 'banana'" in out
    assert "choose a number from 1 to" in out
    assert "missing field" in out
    assert code == 1 and "abandoned" in out


def test_play_accepts_numbers_and_text_until_the_end_of_set_up() -> None:
    # claim provinces by number and by text; the bots answer in between
    code, out, _ = run(
        "play",
        "spqrisiko",
        "--players",
        "5",
        "--seats",
        "human,random,random,random,random",
        "--seed",
        "1",
        input="1\nclaim galicia\n" + "1\n" * 7 + "quit\n",
    )
    assert "Traceback" not in out
    assert "P1: claim galicia" in out
    assert "P1 — reinforcements: place" in out  # set-up over: round 1, the human places legionaries
    assert code == 1 and "abandoned" in out


def test_bad_options_are_reported_without_traceback() -> None:
    code, _, err = run("selfplay", "spqrisiko", "--option", "players=9", "--games", "1")
    assert code == 2 and "'players'" in err and "Traceback" not in err
    code, _, err = run("selfplay", "spqrisiko", "--option", "naval_move", "--games", "1")
    assert code == 2 and "key=value" in err
    code, _, err = run("play", "spqrisiko", "--seats", "human,wizard,random,random")
    assert code == 2 and "unknown bot" in err


HEAVY = ("scipy", "matplotlib", "dask", "numpy", "pandas")


def _imported_after(code: str) -> list[str]:
    script = (
        "import sys\n" + code + "\n"
        f"print('heavy:' + ','.join(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("heavy:"), done.stdout
    return [m for m in last.removeprefix("heavy:").split(",") if m]


def test_the_cli_imports_no_heavy_library_until_a_command_needs_it() -> None:
    assert _imported_after("import hegemon.cli") == []
    run_cmd = (
        "from typer.testing import CliRunner\nfrom hegemon.cli import app\n"
        "for args in (['--help'], ['odds', 'spqrisiko', '9', '10'], ['odds', 'spqrisiko', '--table', '6x6', '--csv'],"
        " ['lab', '--help']):\n"
        "    r = CliRunner().invoke(app, args)\n"
        "    assert r.exit_code == 0, (args, r.output)\n"
    )
    assert _imported_after(run_cmd) == []


def test_odds_table_prints_every_cell_as_json_and_csv() -> None:
    from fractions import Fraction

    from hegemon.games.spqrisiko.odds import land_battle, sea_attack

    code, out, _ = run("odds", "spqrisiko", "--table", "30x30", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "land" and data["attackers"] == 30 and data["defenders"] == 30
    assert len(data["p_win"]) == 30 and all(len(row) == 30 for row in data["p_win"])
    assert Fraction(data["fraction"][8][9]) == land_battle(9, 10).p_win
    assert data["p_win"][0] == [0.0] * 30  # one legionary never attacks
    code, out, _ = run("odds", "spqrisiko", "--table", "12x7", "--sea", "--csv")
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 13 and lines[0].startswith("attacker,defender 1,")
    cells = lines[5].split(",")
    assert cells[0] == "5" and float(cells[3]) == float(sea_attack(5, 3).p_win)
    code, out, _ = run("odds", "spqrisiko", "--table", "4x3", "--frontier", "--json")
    assert json.loads(out)["inputs"] == {"stop_at": 2, "keep": 1}
    code, _, err = run("odds", "spqrisiko", "--table", "30")
    assert code == 2 and "AxD" in err
    code, _, err = run("odds", "spqrisiko", "--table", "300x3")
    assert code == 2 and "between 1 and 200" in err
    code, _, err = run("odds", "spqrisiko")
    assert code == 2 and "--table" in err


def test_an_unreachable_external_bot_ends_selfplay_and_play_with_one_line(tmp_path: Path) -> None:
    from tests.ai.test_bots import free_port

    url = f"http://127.0.0.1:{free_port()}/Bot"
    for args in (["selfplay", "polis", "--games", "2", "--bots", f"external:{url},random",
                  "--jsonl", str(tmp_path / "g.jsonl")],
                 ["play", "polis", "--seats", f"human,external:{url}", "--seed", "3"]):  # fmt: skip
        proc = subprocess.run([sys.executable, "-m", "hegemon", *args], input="pass\n" * 5, capture_output=True,
                              text=True, timeout=120)  # fmt: skip
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 1 and len(lines) == 1, proc.stderr
        who = "game 1 (seed 0)" if args[0] == "selfplay" else "Sparta"
        assert lines[0] == f"error: {who}: external bot at {url} is unreachable (Connection refused)"


def test_an_external_bot_is_called_at_its_url_as_written() -> None:
    from tests.ai.test_bots import PathBot

    srv = PathBot()
    try:
        url = f"http://127.0.0.1:{srv.port}/MyBot?Key=ABC"
        code, out, err = run(
            "selfplay", "polis", "--games", "1", "--bots", f"random,External:{url}", "--json"
        )
        assert code == 0, err
        assert json.loads(out)["bots"] == ["random", f"External:{url}"]
        assert srv.paths and set(srv.paths) == {"/MyBot?Key=ABC"}
        code, out = play_as_human(url)
        assert code == 1 and "Sparta: " in out and set(srv.paths) == {"/MyBot?Key=ABC"}
    finally:
        srv.close()


def play_as_human(url: str) -> tuple[int, str]:
    result = runner.invoke(app, ["play", "polis", "--seats", f"Human,external:{url}", "--seed", "3"],
                           input="pass\n" * 3 + "quit\n")  # fmt: skip
    return result.exit_code, result.stdout
