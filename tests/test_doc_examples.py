"""The project's one doc-drift mechanism (issue 28 point 10): every command block of README.md and docs/ is run,
and what it prints is compared with what is pasted under it.

How a block is checked (the rules a writer follows):

- A *command block* is a fenced code block whose first line starts with `$ `. Each `$ ` line is a command (a
  command whose quotes are still open continues on the next lines); the lines after it, up to the next `$ ` line
  or the end of the block, are its output. Blocks without `$ ` lines (```sh recipes, documents) are not run.
- The commands of one block run in order in one bash session, from a fresh temporary folder holding a link to the
  repository's `examples/` (so `tapete report` or `tapete serve` write nothing into the tree), with the project's
  `.venv/bin` first on PATH, `COLUMNS=120` (tables are as wide as a 120-column terminal), standard error merged
  into standard output (what a terminal shows) and standard input empty. Background jobs (`cmd &`) are ended when
  the block ends.
- The output must match the pasted text line by line, trailing spaces and blank lines at either end ignored, with
  two marks for what changes from run to run:
    * a line that is only `…` stands for any number of lines (none included);
    * `[…]` inside a line stands for any text in that line (a rate in rounds/s, a timestamp, a port).
- An HTML comment on the line before the block's opening fence sets options, comma-separated:
    * `<!-- doc-example: slow -->`: the block takes minutes (a server, a report, blackjack's exact edge): it is
      checked only in the slow run, `pytest -m slow tests/test_doc_examples.py` (the `slow` marker is excluded by
      default in pyproject.toml);
    * `<!-- doc-example: columns=N -->`: run it with COLUMNS=N.

To bring a document under the mechanism (the lead: `docs/edge.md`), add it to DOCUMENTS (README.md, docs/*.md and
docs/games/*.md are in already), run `pytest tests/test_doc_examples.py -k NAME`, and paste what the failure shows.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "games").glob("*.md")])
LINES, INLINE = "…", "[…]"
MARKER = re.compile(r"<!--\s*doc-example:\s*(.*?)\s*-->")


@dataclass
class Block:
    document: Path
    line: int                                   # the opening fence's line number
    commands: list[tuple[str, str]] = field(default_factory=list)      # (command, expected output)
    slow: bool = False
    columns: int = 120

    @property
    def name(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def blocks(document: Path) -> list[Block]:
    """The command blocks of `document`, with their options."""
    found: list[Block] = []
    lines = document.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
        body = lines[i + 1:end]
        if body and body[0].startswith("$ "):
            block = Block(document, i + 1)
            options = MARKER.search(lines[i - 1]) if i else None
            for option in (options.group(1).split(",") if options else []):
                key, _, value = option.strip().partition("=")
                if key == "slow":
                    block.slow = True
                elif key == "columns":
                    block.columns = int(value)
                else:
                    raise ValueError(f"{block.name}: unknown doc-example option {option!r}")
            block.commands = commands(body)
            found.append(block)
        i = end + 1
    return found


def commands(body: list[str]) -> list[tuple[str, str]]:
    """`$ ` lines (continued while their quotes are open) and the output under each."""
    out: list[tuple[str, str]] = []
    k = 0
    while k < len(body):
        command = body[k][2:]
        k += 1
        while not _complete(command) and k < len(body):
            command += "\n" + body[k]
            k += 1
        output = []
        while k < len(body) and not body[k].startswith("$ "):
            output.append(body[k])
            k += 1
        out.append((command, "\n".join(output)))
    return out


def _complete(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:
        return False
    return True


def matches(expected: str, actual: str) -> bool:
    """`actual` is `expected` with `…` lines and `[…]` spans standing for anything."""
    pattern = []
    for line in _normal(expected):
        if line.strip() == LINES:
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*?".join(re.escape(part) for part in line.split(INLINE)) + r"\n")
    return re.fullmatch("".join(pattern), "".join(f"{line}\n" for line in _normal(actual)), re.S) is not None


def _normal(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run(block: Block, workdir: Path) -> list[str]:
    """Each command's output, from one bash session."""
    (workdir / "examples").symlink_to(ROOT / "examples")
    script = ["set +e"]
    for index, (command, _) in enumerate(block.commands):
        script += [f"printf '\\n@@doc-example {index}@@\\n'", f"{{ {command}\n}} 2>&1"]
    script += ["printf '\\n@@doc-example end@@\\n'", "kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; true"]
    env = {**os.environ, "COLUMNS": str(block.columns), "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "TAPETE_DATABASE_URL": f"sqlite:///{workdir / 'tapete.db'}", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    env.pop("TAPETE_DEBUG", None)
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=1800 if block.slow else 300)
    parts = re.split(r"\n@@doc-example (?:\d+|end)@@\n", done.stdout)
    return parts[1:len(block.commands) + 1]


ALL = [b for d in DOCUMENTS for b in blocks(d)]


@pytest.mark.parametrize("block", [pytest.param(b, id=b.name, marks=[pytest.mark.slow] if b.slow else [])
                                   for b in ALL])
def test_a_documented_command_prints_what_the_document_shows(block: Block, tmp_path: Path) -> None:
    outputs = run(block, tmp_path)
    for (command, expected), actual in zip(block.commands, outputs, strict=True):
        assert matches(expected, actual), (f"{block.name}: `$ {command}` printed\n{actual}\n"
                                           f"--- the document shows\n{expected}")


def test_the_mechanism_finds_the_readmes_and_the_docs_blocks() -> None:
    names = {b.name.split(":")[0] for b in ALL}
    assert {"README.md", "docs/terminal.md", "docs/server.md"} <= names, names
    commands_seen = [c for b in ALL for c, _ in b.commands]
    assert any(c.startswith("tapete settle") for c in commands_seen)
    assert not [c for c in commands_seen if "uuidgen" in c]


@pytest.mark.parametrize(("expected", "actual", "ok"), [
    ("a\nb", "a\nb\n\n", True), ("a\n…\nd", "a\nb\nc\nd", True), ("a\n…\nd", "a\nd", True),
    ("rate [\u2026] rounds/s", "rate 1,234 rounds/s", True), ("a\nb", "a\nc", False), ("a\n…", "b\nc", False),
    ("x [\u2026] y", "x y", False),
])
def test_the_elision_marks(expected: str, actual: str, ok: bool) -> None:
    assert matches(expected, actual) is ok
