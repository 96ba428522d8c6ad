"""The command line: exit codes, error documents, the games document, play."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from rich.console import Console
from typer.testing import CliRunner

from tapete.catalog import get_game
from tapete.cli import app
from tapete.terminal import play_game

runner = CliRunner()
DOC = {"game": "roulette-french", "jurisdiction": "ES", "table": {"minimum": 100},
       "events": [{"bet": {"id": "b1", "player": "p1", "kind": "straight", "on": [17], "amount": 500}}, {"spin": 17}]}


def settle(text: str, *args: str):
    result = runner.invoke(app, ["settle", *args, "-"], input=text)
    return result.exit_code, result.stdout


def test_settle_prints_one_settlement() -> None:
    code, out = settle(json.dumps(DOC))
    assert code == 0
    assert json.loads(out)["bets"]["b1"] == {"status": "won", "staked": 500, "returned": 18000}


def test_bad_input_gets_an_error_document_and_exit_2() -> None:
    cases = {
        "{not json": "bad-document",
        json.dumps({**DOC, "game": "nope"}): "unknown-game",
        json.dumps({**DOC, "extra": 1}): "bad-document",
        json.dumps({**DOC, "events": [{"bet": {"id": "b", "player": "p", "kind": "split", "on": [1, 5], "amount": 100}}]}): "bad-target",
        json.dumps({**DOC, "events": [{"bet": {"id": "b", "player": "p", "kind": "straight", "on": [1], "amount": 3100}}]}): "over-maximum",
        json.dumps({**DOC, "events": [{"spin": 37}]}): "bad-outcome",
        "[]": "bad-document",
    }
    for text, code in cases.items():
        exit_code, out = settle(text)
        error = json.loads(out)["error"]
        assert exit_code == 2 and error["code"] == code, (text, out)
        assert "Traceback" not in out


def test_error_messages_name_the_rule_and_its_source() -> None:
    bad = {**DOC, "events": [{"bet": {"id": "b1", "player": "p", "kind": "straight", "on": [1], "amount": 3500}}]}
    error = json.loads(settle(json.dumps(bad))[1])["error"]
    assert error["bet"] == "b1" and "001:117-123" in error["message"] and "Orden de 9 de octubre de 1979" in error["message"]


def test_jsonl_answers_every_line() -> None:
    code, out = settle(json.dumps(DOC) + "\n" + "{bad\n", "--jsonl")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and "bets" in lines[0] and "error" in lines[1]


def test_games_document_shape() -> None:
    result = runner.invoke(app, ["games", "--json"])
    games = {g["id"]: g for g in json.loads(result.stdout)["games"]}
    french = games["roulette-french"]
    assert french["jurisdictions"] == ["ES", "ES-IB", "ES-GA", "ES-AN"]
    assert {"kind": "straight", "pays": "35:1", "description": "Pleno: one number, 0 included"} in french["kinds"]
    assert french["verbs"] == ["prison", "half"]
    assert {"key": "minimum", "required": True, "description": french["table"][0]["description"]} == french["table"][0]
    assert {k: v for k, v in french["table"][1].items() if k != "description"} == {"key": "tier", "default": 3}


def test_edge_json() -> None:
    result = runner.invoke(app, ["edge", "roulette-french", "-j", "ES", "--json"])
    doc = json.loads(result.stdout)
    assert doc["game"] == "roulette-french" and doc["jurisdiction"] == "ES"
    straight = next(b for b in doc["bets"] if b["kind"] == "straight")
    assert straight == {"kind": "straight", "house_edge": "1/37", "house_edge_percent": 2.7027, "method": "exact"}
    assert {b["option"] for b in doc["bets"] if b["kind"] == "red"} == {"half", "prison"}


def test_rules_and_diff_show_citations() -> None:
    out = runner.invoke(app, ["rules", "roulette-french", "-j", "ES-AN", "--json"]).stdout
    rules = {r["rule"]: r for r in json.loads(out)["rules"]}
    assert rules["prison_lock_basis"] == {"rule": "prison_lock_basis", "value": "held", "source": "003:312-320",
                                          "cite": "Orden de 4 de febrero de 2010 (003:312-320)"}
    diff = json.loads(runner.invoke(app, ["diff", "roulette-french", "--json"]).stdout)
    rows = {d["rule"]: d for d in diff["differences"]}
    assert rows["zero_trios"]["ES"]["value"] is False and rows["zero_trios"]["ES-IB"]["value"] is True   # typed (issue 32)
    assert "payouts" not in rows


def test_unknown_game_on_the_cli() -> None:
    result = runner.invoke(app, ["rules", "nope"])
    assert result.exit_code == 2


def test_play_a_session_at_the_terminal() -> None:
    lines = iter(["17 5", "red 10", "split 17 20 2", "split 1 5 2", "bogus 3", "spin", "p", "bets", "quit"])
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    play_game(get_game("roulette-french"), "ES", minimum=100, balance=50_000, seed="00" * 32, console=console,
              read=lambda prompt: next(lines))
    text = out.getvalue()
    assert "No more bets" in text and "straight up 17: €5.00" in text
    assert "does not fit the cloth" in text and "I do not know the bet" in text
    assert "You leave with" in text


def test_console_script_runs() -> None:
    proc = subprocess.run([sys.executable, "-m", "tapete.cli", "settle", "-"], input=json.dumps(DOC),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["house"]["net"] == -17500
