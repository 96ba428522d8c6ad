"""Issue 28: the command line never answers with a traceback, never stays silent, never cuts a number.

Point by point; the property test over generated command lines is tests/test_cli_property.py, the server's
start/stop and /docs tests/server/test_serve_issue28.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

import tapete.cli as cli
from tapete.cli import app
from tapete.cli_render import fit, progress

ROOT = Path(__file__).parents[1]
runner = CliRunner()


def tapete(command: str, *, stdin: Any = subprocess.DEVNULL) -> subprocess.CompletedProcess[bytes]:
    """A real process under sh, so the redirections (`> /dev/full`, `<&-`, `| true`) are the shell's."""
    python = f"{sys.executable} -c 'from tapete.cli import main; main()'"
    return subprocess.run(["sh", "-c", command.replace("tapete", python, 1)], stdin=stdin, capture_output=True,
                          timeout=120, cwd=ROOT, env={**os.environ, "COLUMNS": "80"})


def one_line(err: bytes) -> str:
    text = err.decode()
    assert "Traceback" not in text and "Exception ignored" not in text, text
    assert len(text.strip().splitlines()) == 1, text
    return text


# -- point 1: every input/output failure is one line (or the closed pipe's silence, 141) ----------------------------
@pytest.mark.parametrize("command", ["tapete games --json > /dev/full", "tapete settle examples/round.json > /dev/full",
                                     "tapete rules roulette-french > /dev/full"])
def test_a_full_device_is_one_line_and_exit_2(command: str) -> None:
    run = tapete(command)
    assert run.returncode == 2
    assert "No space left on device" in one_line(run.stderr)


def test_a_closed_pipe_is_silent_with_141() -> None:
    run = tapete("tapete games --json | true; exit 0")      # the reader is gone before the first write
    assert run.stderr == b""
    run = subprocess.run(["bash", "-c", f"{sys.executable} -c 'from tapete.cli import main; main()' games --json "
                          "| true; echo ${PIPESTATUS[0]}"], capture_output=True, timeout=120, cwd=ROOT)
    assert run.stdout.strip() == b"141" and run.stderr == b""


def test_a_closed_standard_input_is_said_not_a_traceback() -> None:
    run = tapete("tapete settle - <&-")
    assert run.returncode == 2 and b"Traceback" not in run.stdout + run.stderr
    assert "standard input is closed" in json.loads(run.stdout)["error"]["message"]
    play = tapete("tapete play roulette-french --lang en <&-")   # the session ends as at the end of its input
    assert play.returncode == 0 and b"Traceback" not in play.stdout + play.stderr


@pytest.mark.parametrize("argv", [["audit", "verify", "/dev/zero"], ["settle", "/dev/full"], ["verify", "/dev/urandom"]])
def test_a_device_that_never_ends_is_refused_not_read_forever(argv: list[str]) -> None:
    """Reading /dev/zero whole took all the memory (the property test found it): its first bytes are refused."""
    result = runner.invoke(app, argv)
    assert result.exit_code == 2 and "binary file" in json.loads(result.stdout)["error"]["message"]


def test_audit_export_to_an_unwritable_path_names_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tapete.server.audit import chains as audit  # FIXME-CHECK
    from tapete.server.storage.db import Database

    url = f"sqlite:///{tmp_path / 'a.db'}"
    db = Database(url)
    db.migrate()
    db.dispose()
    monkeypatch.setattr(audit, "iter_rows", lambda conn, table: iter([{"table_id": "t", "seq": 1}]))
    monkeypatch.setattr(audit, "verify_chain", lambda records, heads: {"ok": True})     # one record to write
    for target in ("/proc/x", "/dev/full"):
        result = runner.invoke(app, ["audit", "export", "--database", url, "-o", target])
        assert result.exit_code == 2, result.output
        assert "--out" in one_line(result.stderr.encode()) and target in result.stderr


def test_usage_errors_are_one_line_in_the_projects_words() -> None:
    for argv, named in ((["simulate", "roulette-french", "--rounds", "abc"], "whole number"),
                        (["edge", "--bogus"], "--bogus"), (["nosuch"], "nosuch"), (["risk", "roulette-french"], "--bets")):
        result = runner.invoke(app, argv)
        assert result.exit_code == 2
        line = one_line(result.stderr.encode())
        assert named in line and "Usage:" not in line and "Input should be" not in line, line


def test_no_arguments_prints_the_help_with_the_exit_codes() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 0 and "141" in result.stdout and "Exit codes" in result.stdout


# -- point 2: progress on a terminal, nothing on a pipe or with --json ------------------------------------------------
def test_progress_shows_on_a_terminal_only() -> None:
    for terminal, as_json, shown in ((True, False, True), (False, False, False), (True, True, False)):
        out = io.StringIO()
        console = Console(file=out, force_terminal=terminal, width=80)
        with progress(console, "blackjack ES: deriving the strategy", as_json=as_json) as update:
            update(description="blackjack ES: deriving the strategy")
        assert ("deriving the strategy" in out.getvalue()) is shown, (terminal, as_json, out.getvalue())


@pytest.mark.parametrize("argv", [["edge", "roulette-french"], ["strategy", "poker-sin-descarte", "-j", "ES-IB"],
                                  ["par", "boule", "--rounds", "200", "--out", "{tmp}"],
                                  ["report", "--rounds", "200", "--game", "boule", "--out", "{tmp}"]])
def test_long_commands_say_what_they_do(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []

    @contextlib.contextmanager
    def recording(console: Any, description: str, **kwargs: Any) -> Iterator[Any]:
        said.append(description)
        yield lambda **kw: None

    monkeypatch.setattr(cli, "progress", recording)
    result = runner.invoke(app, [a.format(tmp=tmp_path / "out") for a in argv])
    assert result.exit_code == 0, result.output
    assert said and all(said), said


# -- point 3: no number cut at 80 columns ------------------------------------------------------------------------------
def test_a_long_fraction_is_never_cut() -> None:
    table = Table(title="edge")
    for name in ("bet", "on", "option", "house edge", "%", "RTP %", "method"):
        table.add_column(name)
    fraction = "18880657128/1525814595305"
    table.add_row("player", "—", "draw-on-5", fraction, "1.2374", "98.7626", "enumerated (float), error ≤ 1e-12")
    for width in (40, 60, 80, 120):
        out = io.StringIO()
        console = Console(file=out, width=width, color_system=None)
        console.print(fit(table, console))
        assert fraction in out.getvalue() and "…" not in out.getvalue(), out.getvalue()


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.console, "width", 80)


def test_games_rules_and_diff_are_whole_at_80_columns(narrow: None) -> None:
    from tapete.catalog import all_games

    outputs = [runner.invoke(app, ["games"]).stdout]
    for g in all_games():
        outputs.append(runner.invoke(app, ["rules", g.id, "-j", next(iter(g.rules))]).stdout)
        if len(g.rules) > 1:
            outputs.append(runner.invoke(app, ["diff", g.id]).stdout)
        for ident in (g.id, *g.rules):
            assert ident in outputs[0]
    for out in outputs:
        assert out and "…" not in out and max(len(line) for line in out.splitlines()) <= 80, out


def test_edge_fractions_are_whole_at_80_columns(narrow: None) -> None:
    result = runner.invoke(app, ["edge", "chemin-de-fer"])
    assert result.exit_code == 0 and "…" not in result.stdout
    bets = json.loads(runner.invoke(app, ["edge", "chemin-de-fer", "--json"]).stdout)["bets"]
    for bet in bets:
        assert bet["house_edge"] in result.stdout.replace("\n", " ").split() or "/" not in bet["house_edge"]


# -- point 4: a question without an answer is refused, naming what applies ----------------------------------------------
@pytest.mark.parametrize(("argv", "named"), [
    (["simulate", "roulette-french", "--rounds", "100", "--bets", "red@jail"], "half, prison"),
    (["risk", "roulette-french", "--bets", "red@jail", "--sessions", "2"], "half, prison"),
    (["edge", "holdem", "-j", "ES-AN"], "no house edge"),
    (["edge", "bingo"], "tapete bingo"),
    (["simulate", "holdem", "-j", "ES-AN"], "no house edge"),
    (["simulate", "lototrot", "-j", "ES-IB"], "tapete pool lototrot"),
    (["diff", "lototrot"], "nothing to compare"),
])
def test_nonsense_is_refused_with_what_applies(argv: list[str], named: str) -> None:
    result = runner.invoke(app, argv)
    assert result.exit_code == 2
    assert named in one_line(result.stderr.encode())
    as_json = runner.invoke(app, [*argv, "--json"])
    assert as_json.exit_code == 2 and "error" in json.loads(as_json.stdout)


def test_a_known_option_still_runs_and_identical_rules_are_said() -> None:
    assert runner.invoke(app, ["simulate", "roulette-french", "--rounds", "100", "--bets", "red@prison"]).exit_code == 0
    same = runner.invoke(app, ["diff", "boule"])
    assert same.exit_code == 0 and "every rule is the same" in same.stdout and "┃" not in same.stdout


# -- point 5: verify's input and exit codes ------------------------------------------------------------------------------
def test_verify_refuses_a_round_document_with_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = runner.invoke(app, ["verify", "examples/round.json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert "round document" in error["message"] and "tapete settle" in error["message"]


def test_verify_names_the_bet_that_differs() -> None:
    from tapete.server.tables.fairness import bet_differences

    mine = {"b1": {"status": "won", "returned": 600}, "b2": {"status": "lost", "returned": 0}}
    theirs = {"b1": {"status": "won", "returned": 500}, "b3": {"status": "lost", "returned": 0}}
    assert bet_differences(mine, theirs) == ["b1: returned 600 recomputed, 500 recorded",
                                             "b2: missing from the record", "b3: only in the record"]


def test_the_exit_codes_are_documented() -> None:
    help_text = runner.invoke(app, ["--help"]).stdout
    docs = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    for text in (help_text, docs):
        for code in ("0", "1", "2", "141"):
            assert f"{code} " in text, code
    assert "## Exit codes" in docs


# -- point 8: no password prompt without a terminal ----------------------------------------------------------------------
def test_users_add_without_a_terminal_points_to_password_stdin(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'u.db'}"
    result = runner.invoke(app, ["users", "add", "nadia", "--role", "player", "--database", url],
                           input="a-long-passphrase-1\n")
    assert result.exit_code == 2
    line = one_line(result.stderr.encode())
    assert "--password-stdin" in line and "a-long-passphrase" not in result.output
    for argv in (["users", "password", "nadia", "--database", url],):
        assert "--password-stdin" in runner.invoke(app, argv, input="x\n").stderr


def test_make_says_what_it_installs() -> None:
    """`make run` on a fresh clone installed for a minute in silence (-q): it says what it does, and pip speaks."""
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8").split("$(STAMP): pyproject.toml\n", 1)[1].split("\n\n")[0]
    assert "@echo" in recipe and "installing" in recipe
    (install,) = [line for line in recipe.splitlines() if ".[dev]" in line]
    assert " -q " not in install
