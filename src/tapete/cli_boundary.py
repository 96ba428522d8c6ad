"""The one error boundary of the `tapete` command (issue 28 points 1 and 7).

Every command of the Typer app runs inside `TapeteGroup.main`, which turns whatever escapes a command into the
project's answer, so that no command needs its own net:

- a usage error (an unknown option, a value of the wrong type, a missing argument) -> one line naming it, exit 2;
- a closed pipe on standard output (`tapete games | head -1`) -> silence, exit 141 (128 + SIGPIPE, as the shell's
  own tools);
- any other input/output failure (a full device, a file that cannot be written) -> one line, exit 2;
- a closed standard input (`<&-`) reads as an empty one, and `cli_args.read_text` says it was closed;
- any other exception -> one line `internal-error`, exit 2 (TAPETE_DEBUG=1 lets the traceback through).

One line means: on stderr, or, where the command speaks JSON (`--json`, `settle`, `verify`, `audit verify`), the
error document on stdout. The exit codes are documented in `tapete --help` (EXIT_CODES) and docs/terminal.md.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from typer.core import TyperGroup

from tapete import cli_args

try:        # typer >= 0.2x carries its own click; older ones use click itself
    from typer import _click as click
    from typer.exceptions import Abort
except ImportError:  # pragma: no cover - an older typer
    import click  # type: ignore[no-redef]
    from click import Abort  # type: ignore[assignment]

EXIT_CODES = ("Exit codes: 0 done; 1 a check failed (verify, audit); 2 bad input or an error, said in one line; "
              "141 standard output was closed (a pipe's reader stopped).")
JSON_COMMANDS = ("settle", "verify", "audit verify")
SIGPIPE_EXIT = 141


class ClosedInput(io.StringIO):
    """Standard input when the process was started with it closed (`<&-`): reads are empty, and `closed_input`
    lets a command that needs it say so."""

    closed_input = True

    def fileno(self) -> int:
        raise io.UnsupportedOperation("standard input is closed")

    def isatty(self) -> bool:
        return False


class TapeteGroup(TyperGroup):
    """The top-level group: click's parsing and the commands, run inside `guarded`."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        code = guarded(lambda: super(TapeteGroup, self).main(argv, prog_name, complete_var, standalone_mode=False,
                                                             **extra), argv)
        if standalone_mode:
            sys.exit(code)
        return code

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as exc:      # typer's main would turn EPIPE into a bare exit 1: carry it past
            raise _Failed(exc) from exc


class _Failed(Exception):
    def __init__(self, exc: OSError) -> None:
        super().__init__(str(exc))
        self.os_error = exc


def guarded(call: Callable[[], Any], argv: list[str]) -> int:
    """Run `call` (click's main, not standalone) and answer any failure as the module's docstring says."""
    if sys.stdin is None:
        sys.stdin = ClosedInput()
    try:
        rv = call()
        code = rv if isinstance(rv, int) else 0
    except click.exceptions.NoArgsIsHelpError as exc:       # `tapete`, `tapete audit`: the help is the answer
        click.echo(exc.ctx.get_help())
        code = 0
    except click.exceptions.UsageError as exc:
        code = say("bad-option", usage_message(exc), argv)
    except Abort:                                      # a prompt met the end of standard input
        code = say("bad-request", "standard input ended before the answer the command asked for", argv)
    except _Failed as exc:
        code = io_failure(exc.os_error, argv)
    except OSError as exc:
        code = io_failure(exc, argv)
    except Exception as exc:  # noqa: BLE001 - the net under every command
        if debug():
            raise
        code = say("internal-error", f"tapete failed unexpectedly ({type(exc).__name__}): a bug in tapete, "
                   "please report it with the command line", argv)
    try:
        sys.stdout.flush()
    except OSError as exc:
        code = io_failure(exc, argv)
    return code


def io_failure(exc: OSError, argv: list[str]) -> int:
    """A closed pipe is the reader's choice: silence and 141. Anything else: one line on stderr, exit 2."""
    _silence_stdout()
    if exc.errno == errno.EPIPE:
        return SIGPIPE_EXIT
    what = f"{exc.filename}" if exc.filename else "standard output"
    return say("io-error", f"cannot write or read {what}: {exc.strerror or type(exc).__name__}", argv, json_ok=False)


def say(code: str, message: str, argv: list[str], *, json_ok: bool = True) -> int:
    """One line: the error document on stdout where the command speaks JSON, else on stderr (also when stdout
    cannot take the document: a full device). Exit code 2 (141 when stdout's reader has gone)."""
    message = cli_args.one_line(message)
    if json_ok and speaks_json(argv):
        try:
            print(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False))
            sys.stdout.flush()
            return 2
        except OSError as exc:
            _silence_stdout()
            if exc.errno == errno.EPIPE:
                return SIGPIPE_EXIT
    try:
        print(f"error {code}: {message}", file=sys.stderr)
        sys.stderr.flush()
    except OSError:
        pass
    return 2


def speaks_json(argv: list[str]) -> bool:
    words = [a for a in argv if not a.startswith("-")]
    return "--json" in argv or (bool(words) and (words[0] in ("settle", "verify")
                                                 or words[:2] == ["audit", "verify"]))


def usage_message(exc: Any) -> str:
    """Click's complaint, on one line, with where to read the command's options."""
    text = exc.format_message().strip().rstrip(".")
    text = re.sub(r"Input should be a valid (\w+)\b[^()]*", lambda m: f"expects {_KINDS.get(m[1], 'a ' + m[1])}", text)
    path = exc.ctx.command_path.split(" ")[1:] if exc.ctx is not None else []     # the program's name may be `-c`
    where = " ".join(["tapete", *path])
    return f"{text} ({where} --help lists what it takes)"


_KINDS = {"integer": "a whole number", "number": "a number", "boolean": "true or false"}


def debug() -> bool:
    return os.environ.get("TAPETE_DEBUG", "") not in ("", "0")


def _silence_stdout() -> None:
    """After a failed write, the interpreter's own flush at exit must not print Python's words: point the
    process's standard output at /dev/null (only the real one: a test's captured stream is left alone)."""
    if sys.stdout is sys.__stdout__ and sys.__stdout__ is not None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.__stdout__.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
