"""Issue 16 point 4: no traceback, ever, at the command line.

Every command of the Typer app (found by introspection: a new command without cases here fails
`test_every_command_has_bad_input_cases`) is driven with a table of bad values: each answers exit code 2, one line
(an error document where the command speaks JSON), naming the option at fault, and no `Traceback`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import tapete.cli as cli
from tapete.cli import app

runner = CliRunner()
ROUND = {"game": "roulette-french", "jurisdiction": "ES", "table": {"minimum": 100},
         "events": [{"bet": {"id": "b1", "player": "p1", "kind": "straight", "on": [17], "amount": 500}}, {"spin": 17}]}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("bad")
    made = {
        "binary": bytes(range(256)) * 4,
        "latin1": "{\"game\": \"ruleta francesa, año\"}".encode("latin-1"),
        "empty": b"",
        "wrong": json.dumps({"seed": "00"}).encode(),
        "list": b"[1, 2, 3]",
        "notjson": b"{not json",
        "no-table-id": json.dumps({"seq": 1, "prev_hash": "x"}).encode() + b"\n",
        "bad-types": json.dumps({"table_id": 3, "seq": "1", "prev_hash": "x", "ts": "t", "kind": "k", "actor": "a",
                                 "data": {}, "hash": "h"}).encode() + b"\n",
        "huge": json.dumps(ROUND).replace('"amount": 500', '"amount": ' + "9" * 5000).encode(),
        "unsettled": json.dumps({"round": 4, "table_id": "t1", "commitment": "ab", "status": "open"}).encode(),
        "config": b"[casino\nname = 1",
        "afile": b"x",
    }
    paths = {}
    for name, data in made.items():
        (d / name).write_bytes(data)
        paths[name] = str(d / name)
    (d / "folder").mkdir()
    paths["folder"] = str(d / "folder")
    paths["missing"] = str(d / "missing.json")
    paths["db"] = f"sqlite:///{d / 'audit.db'}"
    paths["sha"] = "ab" * 32
    from tapete.server.storage.db import Database

    db = Database(paths["db"])
    db.migrate()
    db.dispose()
    return paths


# (arguments, text the answer must name). {name} is a file of the `files` fixture.
CASES: dict[str, list[tuple[list[str], str]]] = {
    "games": [(["--bogus"], "--bogus")],
    "rules": [(["nope"], "unknown game"), (["roulette-french", "-j", "XX"], "XX"), (["bingo", "-j", "ES-AN"], "ES-AN")],
    "diff": [(["nope"], "unknown game"), ([], "GAME")],
    "settle": [(["{binary}"], "binary"), (["{latin1}"], "UTF-8"), (["{folder}"], "folder"), (["{missing}"], "no file"),
               (["{empty}"], "malformed JSON"), (["{huge}"], "5,000 digits"), (["{notjson}"], "malformed JSON"),
               (["{list}"], "JSON object")],
    "edge": [(["nope"], "unknown game"), (["roulette-french", "-j", "XX"], "XX"), (["nope", "--json"], "unknown-game")],
    "play": [(["roulette-french", "--seed", "zz"], "--seed"), (["roulette-french", "--seed", "1f2e3d"], "--seed"),
             (["roulette-french", "--balance", "-5"], "--balance"), (["nope"], "unknown game"),
             (["roulette-french", "-j", "XX"], "XX"), (["roulette-french", "--minimum", "0"], "minimum"),
             (["roulette-french", "--minimum", "nan"], "--minimum"), (["roulette-french", "--balance", "inf"], "--balance")],
    "simulate": [(["roulette-french", "--rounds", "0"], "--rounds"), (["roulette-french", "--rounds", "-5"], "--rounds"),
                 (["roulette-french", "--rounds", "-5", "--json"], "--rounds"),
                 (["roulette-french", "--chunk", "0"], "--chunk"), (["roulette-french", "--workers", "0"], "--workers"),
                 (["roulette-french", "--seed", "-1"], "--seed"), (["roulette-french", "--rounds", "abc"], "--rounds"),
                 (["roulette-french", "--rounds", "10", "--cluster", "tcp://127.0.0.1:1"], "--cluster"),
                 (["roulette-french", "--rounds", "10", "--cluster", "nonsense"], "--cluster"),
                 (["roulette-french", "--rounds", "10", "--bets", "zz"], "zz"), (["nope"], "unknown game"),
                 (["roulette-french", "--rounds", "10", "--strategy", "zz"], "--strategy"),
                 (["blackjack", "--rounds", "10", "--strategy", "zz"], "--strategy"),
                 (["roulette-french", "-j", "XX"], "XX"), (["roulette-french", "--rounds", "9" * 40], "--rounds")],
    "risk": [(["roulette-french", "--bets", "red", "--sessions", "0"], "--sessions"),
             (["roulette-french", "--bets", "red", "--rounds-per-session", "-1"], "--rounds-per-session"),
             (["roulette-french", "--bets", "red", "--tables", "0"], "--tables"),
             (["roulette-french", "--bets", "red", "--tables", "0", "--json"], "--tables"),
             (["roulette-french", "--bets", "zz", "--sessions", "2"], "zz"), (["roulette-french"], "--bets"),
             (["nope", "--bets", "red"], "unknown game")],
    "report": [(["--rounds", "0", "--out", "{folder}/r"], "--rounds"),
               (["--rounds", "10", "--game", "nope", "--out", "{folder}/r"], "unknown game"),
               (["--rounds", "10", "--game", "bingo", "-j", "ES-GA", "--out", "{folder}/r"], "ES-GA"),
               (["-j", "XX", "--out", "{folder}/r"], "XX"), (["ES", "--out", "{folder}/r"], "--compare"),
               (["--rounds", "10", "--out", "{afile}"], "--out")],
    "serve": [(["--database", "foo://bar"], "--database"), (["--database", "not a url"], "--database"),
              (["--port", "70000"], "--port"), (["--config", "{missing}"], "--config"),
              (["--config", "{binary}"], "--config"), (["--config", "{config}"], "--config"),
              (["--log-level", "loud"], "--log-level")],
    "verify": [(["{binary}"], "binary"), (["{latin1}"], "UTF-8"), (["{missing}"], "no file"), (["{folder}"], "folder"),
               (["{wrong}"], "not a round record"), (["{empty}"], "malformed JSON"), (["{list}"], "JSON object"),
               (["{unsettled}"], "not settled"), (["{huge}"], "digits")],
    "audit export": [(["--database", "foo://bar"], "--database"), (["--database", "sqlite:///{folder}/none.db"], "no database file"), (["--database", "{db}", "--table", "nosuch"], "--table"),
                     (["--database", "{db}", "--out", "{folder}"], "--out")],
    "audit verify": [(["{binary}"], "binary"), (["{latin1}"], "UTF-8"), (["{missing}"], "no file"),
                     (["{folder}"], "folder"), (["{no-table-id}"], "table_id"), (["{bad-types}"], "seq"),
                     (["{notjson}"], "malformed JSON"), (["--database", "foo://bar"], "--database"),
                     (["--database", "sqlite:///{folder}/none.db"], "no database file"),
                     (["--database", "{db}", "--head", "ruleta=zz"], "--head"),
                     (["--database", "{db}", "--head", "{sha}"], "NAME=HASH")],
    "bingo": [(["--cards", "0"], "--cards"), (["--cards", "-3"], "--cards"), (["--seed", "zz"], "--seed"),
              (["--price", "abc"], "--price"), (["--price", "Infinity"], "--price"), (["--delay", "-1"], "--delay"),
              (["-j", "XX", "--delay", "0"], "XX"), (["--cards", "0", "--json"], "--cards"),
              (["--lang", "xx", "--delay", "0"], "--lang")],
    "pool lototrot": [(["--tickets", "{binary}", "--result", "{binary}"], "--tickets"),
                      (["--tickets", "{missing}", "--result", "{missing}"], "--tickets"),
                      (["--tickets", "{wrong}", "--result", "{binary}"], "--result"),
                      (["--tickets", "{wrong}", "--result", "{wrong}", "--date", "tomorrow"], "--date"),
                      (["--tickets", "{wrong}", "--result", "{wrong}", "--jackpot", "Infinity"], "--jackpot"),
                      (["--tickets", "{wrong}", "--result", "{wrong}", "--percentage", "NaN"], "--percentage"),
                      (["--tickets", "{wrong}", "--result", "{wrong}", "--lang", "xx"], "--lang")],
    "users add": [(["x", "--role", "player", "--database", "foo://bar", "--password-stdin"], "--database"),
                  (["x", "--role", "wizard", "--password-stdin"], "roles"),
                  (["bad name!", "--role", "player", "--password-stdin"], "username"),
                  (["x", "--role", "player", "--config", "{missing}", "--password-stdin"], "--config")],
    "users roles": [(["x", "--role", "player", "--database", "foo://bar"], "--database"),
                    (["x", "--role", "wizard"], "roles"),
                    (["x", "--role", "a\u2028b\x1cc\vd"], "roles")],     # line breaks of every kind quoted on one line
    "users password": [(["x", "--database", "foo://bar", "--password-stdin"], "--database")],
    "users list": [(["--database", "foo://bar"], "--database"),
                   (["--database", "sqlite:///{folder}/none.db"], "no database file")],
    "excluded load": [(["{binary}"], "binary"), (["{folder}/missing.txt"], "no file"),
                      (["{notjson}"], "no valid DNI/NIE")],
    "backup": [(["--database", "sqlite:///{folder}/none.db"], "no database file"),
               (["--database", "foo://bar"], "--database")],
    "restore": [(["{folder}/missing.backup"], "cannot read"), (["{afile}"], "not a backup")],
    "shift": [(["--database", "sqlite:///{folder}/none.db"], "no database file"), (["--from", "ayer"], "--from"), (["--from", "a\u2029b"], "--from"),
              (["--json", "--csv"], "--json"), (["--timezone", "Mars/Base"], "--timezone"),
              (["--from", "2026-02-01", "--to", "2026-01-01"], "--to")],
    "config check": [(["{missing}"], "cannot be read"), (["{binary}"], "UTF-8"), (["{config}"], "not TOML"),
                     (["{folder}"], "cannot be read"), ([], "file")],
    "db status": [(["--database", "sqlite:///{folder}/none.db"], "no database file")],
    "db upgrade": [(["--database", "sqlite:///{folder}/none.db"], "no database file"),
                   (["--database", "foo://bar"], "--database")],
    "par": [(["nope"], "unknown game"), (["roulette-french", "-j", "XX"], "XX"),
            (["roulette-french", "--rounds", "0"], "--rounds"), (["roulette-french", "--rounds", "-5"], "--rounds"),
            (["roulette-french", "--seed", "-1"], "--seed"), (["roulette-french", "--out", "{afile}"], "--out")],
    "cite": [(["zz"], "not a citation"), (["003:999999"], "past the end"), (["009:1"], "no instrument"),
             (["003:"], "not a citation"), (["003:9-2"], "003")],
    "conformance export": [(["{folder}/kit", "--game", "nope"], "nope"), (["{folder}/kit", "-j", "XX"], "XX"),
                           (["{afile}/kit"], "not a directory")],
    "conformance run": [(["{missing}", "--against", "x"], "no such kit"), (["{binary}", "--against", "x"], "not valid"),
                        (["{folder}", "--against", "x"], "no cases"), (["{folder}", "--against", "x", "--jobs", "0"], "--jobs")],
    "conformance serve": [(["--port", "70000"], "--port")],
    "rng test": [(["--draws", "5"], "--draws"), (["--seed", "zz"], "--seed"), (["--source", "dice"], "--source")],
    "rng stream": [(["--bytes", "0"], "--bytes"), (["--seed", "zz"], "--seed"), (["--source", "dice"], "--source")],
    "strategy": [(["nope"], "unknown game"), (["roulette-french"], "blackjack"), (["blackjack", "-j", "XX"], "XX"),
                 (["blackjack", "--lang", "xx"], "--lang"), (["poker-sin-descarte", "-j", "ES-IB", "--lang", ""], "--lang")],
}


def command_paths(group: Any, prefix: str = "") -> list[str]:
    """Every leaf command, `audit verify` style (typer may vendor click: a group is what has `commands`)."""
    out = []
    for name, command in group.commands.items():
        path = f"{prefix}{name}"
        if getattr(command, "commands", None) is not None:
            out += command_paths(command, path + " ")
        else:
            out.append(path)
    return out


def test_every_command_has_bad_input_cases() -> None:
    commands = command_paths(typer.main.get_command(app))   # type: ignore[arg-type]
    assert len(commands) >= 15
    missing = sorted(set(commands) - set(CASES))
    assert not missing, f"commands without bad-input cases in tests/test_cli_bad_input.py: {missing}"


@pytest.mark.parametrize(("command", "args", "names"), [(c, a, n) for c, cases in CASES.items() for a, n in cases],
                         ids=[f"{c}:{' '.join(a)}" for c, cases in CASES.items() for a, _ in cases])
def test_bad_input_answers_one_line_and_exit_2(command: str, args: list[str], names: str, files: dict[str, str]) -> None:
    argv = [*command.split(), *(a.format(**files) for a in args)]
    result = runner.invoke(app, argv, input="")
    out = result.output
    assert result.exit_code == 2, (argv, result.exit_code, out, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in out
    assert names.lower() in out.lower(), (argv, out)
    if "Usage:" not in out:     # click's own usage errors keep their short panel; ours are one line
        assert len(out.strip().splitlines()) == 1, out
        if command != "config check":      # a check lists the file's problems; a refusal names its code
            assert re.match(r"(error [a-z-]+: |\{)", out.strip()), out
    if "--json" in argv or command in ("settle", "verify", "audit verify"):
        assert "error" in json.loads(out)


def test_an_engine_bug_in_settle_answers_internal_error_without_pythons_words(monkeypatch: pytest.MonkeyPatch) -> None:
    import tapete.conformance.document as document

    def broken(text: str) -> dict:
        raise ZeroDivisionError("division by zero in the secret internals")

    monkeypatch.setattr(document, "settle_text", broken)
    monkeypatch.delenv("TAPETE_DEBUG", raising=False)
    result = runner.invoke(app, ["settle", "-"], input=json.dumps(ROUND))
    assert result.exit_code == 2
    error = json.loads(result.output)["error"]
    assert error["code"] == "internal-error"
    assert "secret" not in error["message"] and "ZeroDivisionError" not in error["message"]


def test_main_turns_an_unexpected_exception_into_one_line(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The net under every command: main() answers one line and exit 2 (TAPETE_DEBUG=1 shows the traceback)."""
    import tapete.catalog as registry

    def broken() -> list:
        raise RuntimeError("the secret internals")

    monkeypatch.setattr(registry, "all_games", broken)
    monkeypatch.setattr(sys, "argv", ["tapete", "games"])
    monkeypatch.delenv("TAPETE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "internal-error" in err and "secret" not in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    monkeypatch.setenv("TAPETE_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main()


def _tapete(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "COLUMNS": "60"}
    return subprocess.run([sys.executable, "-c", "from tapete.cli import main; main()", *args], input=stdin,
                          capture_output=True, timeout=120, env=env)


def test_the_console_script_answers_in_one_line_whatever_the_width(files: dict[str, str]) -> None:
    """A real process, a narrow terminal: still one line on stderr, exit 2 (Rich does not wrap the error)."""
    run = _tapete("risk", "roulette-french", "--bets", "red", "--rounds-per-session", "-1")
    assert run.returncode == 2
    assert run.stderr.decode().strip().count("\n") == 0 and b"--rounds-per-session" in run.stderr
    run = _tapete("settle", "-", stdin=bytes(range(256)))
    assert run.returncode == 2 and b"Traceback" not in run.stdout + run.stderr
    assert json.loads(run.stdout)["error"]["code"] == "bad-document"


def test_a_5000_digit_amount_is_a_bad_document_not_internal_error() -> None:
    text = json.dumps(ROUND).replace('"amount": 500', '"amount": ' + "9" * 5000)
    result = runner.invoke(app, ["settle", "-"], input=text)
    assert result.exit_code == 2
    assert json.loads(result.output)["error"]["code"] == "bad-document"
    assert json.loads(result.output)["error"]["message"].startswith("a number of 5,000 digits")


def test_audit_export_names_the_tables_it_has(files: dict[str, str], tmp_path: Path) -> None:
    result = runner.invoke(app, ["audit", "export", "--database", files["db"], "--table", "nosuch"])
    assert result.exit_code == 2 and "no table 'nosuch'" in result.output
    ok = runner.invoke(app, ["audit", "export", "--database", files["db"], "--out", str(tmp_path / "log.jsonl")])
    assert ok.exit_code == 0, ok.output


def test_report_reports_its_progress_game_by_game(tmp_path: Path) -> None:
    """Issue 16 point 7: `tapete report` drives a progress bar from build_report's per-game callback; off a
    terminal (here) the bar stays quiet and the output is the one line naming the page."""
    from tapete.analysis.report import build_report

    calls: list[tuple[str, int, int]] = []
    build_report("ES", tmp_path / "r", rounds=200, games=["boule", "craps"], progress=lambda *a: calls.append(a))
    assert [(done, total) for _, done, total in calls] == [(0, 2), (1, 2), (2, 2)]
    result = runner.invoke(app, ["report", "--rounds", "200", "--game", "boule", "--out", str(tmp_path / "s")])
    assert result.exit_code == 0 and result.output.startswith("report written to") and "━" not in result.output
