"""The README's examples work as written from the repository root (issue 16): the files they name ship in
`examples/`, and the outputs pasted for `settle`, `cite` and `pool` are what the commands print."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tapete.cli import app

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def examples() -> dict[str, str]:
    """`$ tapete ...` command -> the output pasted under it, from the README's code blocks."""
    found, blocks, inside = {}, [], False
    for line in README.splitlines(keepends=True):
        if line.startswith("```"):
            inside = not inside
            if inside:
                blocks.append("")
        elif inside:
            blocks[-1] += line
    for block in blocks:
        parts = re.split(r"^\$ (.*)$", block, flags=re.M)
        for command, output in zip(parts[1::2], parts[2::2], strict=True):
            found[command.strip()] = output
    return found


def run(command: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(ROOT)
    args = shlex.split(command)
    assert args[0] == "tapete"
    result = CliRunner().invoke(app, args[1:])
    assert result.exit_code == 0, result.output
    return result.output


def test_every_example_file_the_readme_names_ships_with_the_project() -> None:
    names = set(re.findall(r"\bexamples/[\w./-]+\w", README))
    assert {"examples/round.json", "examples/lototrot-tickets.json", "examples/lototrot-result.json"} <= names
    for name in names:
        assert (ROOT / name).is_file(), name


def test_readme_settle_example_prints_what_the_readme_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = examples()["tapete settle examples/round.json"]
    assert json.loads(run("tapete settle examples/round.json", monkeypatch)) == json.loads(shown)
    assert json.loads(examples()["cat examples/round.json"]) == json.loads((ROOT / "examples/round.json").read_text())


def test_readme_cite_example_prints_what_the_readme_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    (command,) = [c for c in examples() if c.startswith("tapete cite ")]
    assert run(command, monkeypatch).strip() == examples()[command].strip()


def test_readme_pool_example_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    (command,) = [c for c in examples() if c.startswith("tapete pool lototrot ")]
    out = run(command, monkeypatch)
    shown = examples()[command]
    for figure in ("€76,000.00", "€3,000.00", "€200.00", "€24.00", "€200,000.00", "1,500", "2006-04-04"):
        assert figure in out and figure in shown, figure
