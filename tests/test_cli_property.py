"""Issue 28, "Must show": every command of `tapete`, fed generated bad input, answers in the project's words.

Hypothesis draws a command (every leaf command of the Typer app, found by introspection: a new one is covered
without a line here), options with generated values (wrong types, out of range, garbage text, options that do not
exist), files (missing, binary, a folder, empty, not UTF-8, malformed JSON, /dev/null, standard input), standard
input bytes and a terminal width, and asserts:

- never a traceback (nor Python's "Exception ignored");
- the exit code is 0, 1, 2 or 141 (docs/terminal.md, "Exit codes");
- exit 2 is one line: on stderr, or the error document on stdout where the command speaks JSON.

Most examples run in-process (CliRunner, through the same `TapeteGroup` boundary as the console script); a few
run as real processes with the shell's plumbing: stdout to /dev/full, standard input closed (`<&-`), stdout a
pipe whose reader has gone (`| true`). Commands that would run for long (a server, a report, blackjack's edge)
always get one element that must be refused (an unknown option, a word for a number, an unknown game), so every
example ends in seconds. The number of examples is bounded (CI); TAPETE_PROPERTY_EXAMPLES raises it.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import tapete.cli as cli
from tapete.cli import app

ROOT = Path(__file__).parents[1]
EXAMPLES = int(os.environ.get("TAPETE_PROPERTY_EXAMPLES", "60"))
EXIT_CODES = {0, 1, 2, 141}
# Fast whatever their arguments: any argv. The others (servers, reports, simulations, play, blackjack) always get
# one element that must be refused, so no example waits on minutes of work or a server that never stops.
FAST = {"games", "rules", "diff", "cite", "settle", "verify", "audit export", "audit verify", "users add",
        "users roles", "users password", "users list", "pool lototrot"}
GAMES = ["roulette-french", "holdem", "lototrot", "bingo", "punto-banca", "nope", "", "🎲", "../x", "ROULETTE-FRENCH"]


def leaf_commands() -> dict[str, Any]:
    found: dict[str, Any] = {}

    def walk(group: Any, prefix: str) -> None:
        for name, command in group.commands.items():
            if getattr(command, "commands", None) is not None:
                walk(command, f"{prefix}{name} ")
            else:
                found[f"{prefix}{name}"] = command
    walk(typer.main.get_command(app), "")
    return found


COMMANDS = leaf_commands()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("property")
    (d / "binary").write_bytes(bytes(range(256)) * 8)
    (d / "latin1").write_bytes("{\"game\": \"año\"}".encode("latin-1"))
    (d / "empty").write_bytes(b"")
    (d / "garbage.json").write_bytes(b"{\"game\": [1, {\"x\": ")
    (d / "list.json").write_bytes(b"[1, 2, 3]")
    (d / "round.json").write_bytes((ROOT / "examples" / "round.json").read_bytes())
    (d / "casino.toml").write_bytes(b"[casino\nname = 1")
    (d / "folder").mkdir()
    return d


FILES = ["binary", "latin1", "empty", "garbage.json", "list.json", "round.json", "casino.toml", "folder",
         "missing.json", "/dev/null", "-", "/proc/x", "/dev/full", "/dev/zero"]
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


def value_for(kind: Any) -> st.SearchStrategy[str]:
    if kind is int:
        return st.one_of(st.integers(-10**20, 0).map(str), st.integers(10**14, 10**40).map(str),
                         st.integers(1, 30).map(str), st.sampled_from(["abc", "1.5", "", "0x10", "٣"]))
    if kind is float:
        return st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr),
                         st.sampled_from(["nan", "inf", "-1", "abc", "1e400", ""]))
    return st.one_of(st.sampled_from(FILES), st.sampled_from(GAMES), TEXT,
                     st.sampled_from(["ES", "XX", "es", "red@jail", "straight:99", "sqlite:///nope/x.db",
                                      "foo://bar", "tcp://127.0.0.1:1", "zz", "003:999999", "0" * 64]))


@st.composite
def argv_for(draw: st.DrawFn, name: str) -> list[str]:
    command = COMMANDS[name]
    options = [p for p in command.params if p.param_type_name == "option"]
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    args: list[str] = []
    for argument in arguments:
        if draw(st.booleans()) or argument.required:
            pool = st.sampled_from(GAMES) if argument.name == "game" else value_for(argument.bare_type())
            args.append(draw(st.one_of(pool, st.sampled_from(FILES))))
    for _ in range(draw(st.integers(0, 4))):
        option = draw(st.sampled_from(options)) if options else None
        if option is None or draw(st.integers(0, 9)) == 0:
            args.append(draw(st.sampled_from(["--bogus", "--json", "-x", "--", "--rounds=", "--help"])))
        elif option.is_flag:
            args.append(option.opts[0])
        else:
            args += [option.opts[0], draw(value_for(option.bare_type()))]
    if name not in FAST:            # one element that must be refused: the command ends at once
        numeric = [o for o in options if o.bare_type() in (int, float)]
        poison = [["--no-such-option"]] + [[o.opts[0], "not-a-number"] for o in numeric]
        if arguments and arguments[0].name == "game":
            poison.append(["game"])
        chosen = draw(st.sampled_from(poison))
        if chosen == ["game"]:
            args = ["no-such-game", *args[1:]] if args else ["no-such-game"]
        else:
            args += chosen
    if "--help" in args:            # the help is a valid answer; keep it rare, it says nothing about errors
        args.remove("--help")
    return [*name.split(), *args]


any_argv = st.sampled_from(sorted(COMMANDS)).flatmap(argv_for)


def check(code: int, out: str | None, err: str, argv: list[str]) -> None:
    """`out` None: standard output went into a pipe nobody reads (its error document, if any, is not seen)."""
    where = f"tapete {shlex.join(argv)}\n--- stdout\n{(out or '')[-2000:]}\n--- stderr\n{err[-2000:]}"
    assert "Traceback" not in (out or "") + err and "Exception ignored" not in err, where
    assert code in EXIT_CODES, where
    lines = err.strip().splitlines()
    if code == 2 and out is not None:
        documents = [line for line in out.splitlines() if line.startswith("{") and '"error"' in line]
        assert len(lines) == 1 or (not lines and documents), where
    assert len(lines) <= 1 or code in (0, 1), where


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(argv=any_argv, stdin=st.binary(max_size=64), width=st.integers(20, 200))
def test_every_command_answers_generated_bad_input_in_one_line(argv: list[str], stdin: bytes, width: int,
                                                               workdir: Path) -> None:
    old_cwd, saved = Path.cwd(), (cli.console.width, cli.err_console.width)
    database = os.environ.get("TAPETE_DATABASE_URL")
    os.chdir(workdir)
    os.environ["TAPETE_DATABASE_URL"] = f"sqlite:///{workdir / 'tapete.db'}"
    cli.console.width = cli.err_console.width = width
    try:
        result = CliRunner().invoke(app, argv, input=stdin)
    finally:
        os.chdir(old_cwd)
        if database is None:
            del os.environ["TAPETE_DATABASE_URL"]
        else:
            os.environ["TAPETE_DATABASE_URL"] = database
        cli.console.width, cli.err_console.width = saved
    assert result.exception is None or isinstance(result.exception, SystemExit), (argv, repr(result.exception))
    check(result.exit_code, result.stdout, result.stderr, argv)


@settings(max_examples=max(6, EXAMPLES // 10), deadline=None, suppress_health_check=list(HealthCheck))
@given(argv=st.sampled_from(sorted(FAST)).flatmap(argv_for),
       plumbing=st.sampled_from(["> /dev/full", "<&-", "| true"]), width=st.integers(20, 200))
def test_a_real_process_with_full_closed_or_gone_streams(argv: list[str], plumbing: str, width: int,
                                                         workdir: Path) -> None:
    assume(all("\x00" not in a for a in argv))       # a process's arguments are C strings: no NUL reaches a command
    python = f"{shlex.quote(sys.executable)} -c 'from tapete.cli import main; main()' {shlex.join(argv)}"
    script = f"{python} {plumbing}; echo \"exit=${{PIPESTATUS[0]}}\" >&2" if plumbing == "| true" else \
        f"{python} {plumbing}"
    env = {**os.environ, "COLUMNS": str(width), "TAPETE_DATABASE_URL": f"sqlite:///{workdir / 'tapete.db'}"}
    run = subprocess.run(["bash", "-c", script], cwd=workdir, capture_output=True, timeout=120, env=env,
                         stdin=subprocess.DEVNULL)
    err = run.stderr.decode(errors="replace")
    code = run.returncode
    if plumbing == "| true":
        err, _, tail = err.rpartition("exit=")
        code = int(tail)
    check(code, None if plumbing == "| true" else run.stdout.decode(errors="replace"), err, argv)


def test_every_command_is_drawn() -> None:
    """The strategy covers every leaf command (a new command needs nothing here to be covered)."""
    assert {"serve", "report", "play", "settle", "audit export", "users add", "pool lototrot"} <= set(COMMANDS)
    json.dumps(sorted(COMMANDS))
