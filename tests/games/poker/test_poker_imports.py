"""Imports in the poker evaluator go one way: ranking <- tables <- evaluator (issue 27: no cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

POKER = Path(__file__).resolve().parents[3] / "src" / "tapete" / "games" / "poker"


def imported(module: str) -> set[str]:
    tree = ast.parse((POKER / f"{module}.py").read_text(encoding="utf-8"))
    names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return {n.rsplit(".", 1)[-1] for n in names if n.startswith("tapete.games.poker")}


def test_ranking_tables_evaluator_import_one_way() -> None:
    assert imported("ranking") == set()
    assert imported("tables") == {"ranking"}
    assert imported("evaluator") == {"ranking", "tables"}
