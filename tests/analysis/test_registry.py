"""Issue 21 point 6: the analysis lives beside the rules. Game modules never import tapete.analysis; the analysis
registry, keyed by game id, names each game's exact solver and simulation kernel."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import tapete
from tapete.analysis.registry import KERNELS, SOLVERS
from tapete.catalog import all_games

GAMES_DIR = Path(tapete.__file__).parent / "games"


def _imports(path: Path) -> list[str]:
    """Every module an import statement of the file names, relative imports resolved against its package."""
    package = ".".join(path.relative_to(GAMES_DIR.parent.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.append(base)
            found.extend(f"{base}.{a.name}" for a in node.names)
    return found


def test_no_game_module_imports_the_analysis() -> None:
    files = sorted(GAMES_DIR.rglob("*.py"))
    assert len(files) > 20
    offenders = {str(f.relative_to(GAMES_DIR)): m for f in files for m in _imports(f)
                 if m == "tapete.analysis" or m.startswith("tapete.analysis.")}
    assert not offenders, offenders


def test_importing_the_games_does_not_import_the_analysis() -> None:
    code = ("import sys, tapete.games\n"
            "print(sorted(m for m in sys.modules if m.startswith('tapete.analysis')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_no_game_carries_its_own_exact_analysis() -> None:
    """The old hook `Game.exact_edges` is gone: a game that defines it again would be silently ignored."""
    for game in all_games():
        assert not hasattr(game, "exact_edges"), game.id


def test_every_registry_entry_names_a_game_and_a_real_kernel() -> None:
    ids = {g.id for g in all_games()}
    assert set(SOLVERS) <= ids and set(KERNELS) <= ids
    for game_id, factory in KERNELS.items():
        names = dict(zip(factory.__code__.co_freevars, (c.cell_contents for c in factory.__closure__ or ()), strict=True))
        assert hasattr(importlib.import_module(names["module"]), names["name"]), game_id
