"""The documentation the rules data points to exists."""

from __future__ import annotations

import re
from pathlib import Path

from tapete.engine.registry import all_games

ROOT = Path(__file__).parents[1]


def anchors() -> set[str]:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    return {m.group(1).strip() for m in re.finditer(r"^##+ (\S+)\s*$", text, re.M)}


def test_every_cited_ruling_exists() -> None:
    known = anchors()
    for game in all_games():
        for rules in game.rules.values():
            for source in rules.sources.values():
                for anchor in re.findall(r"docs/rulings\.md#([\w-]+)", source):
                    assert anchor in known, (game.id, anchor)


def test_rulings_cited_in_code_exist() -> None:
    known = anchors()
    for path in (ROOT / "src").rglob("*.py"):
        for anchor in re.findall(r"docs/rulings\.md#([\w-]+)", path.read_text(encoding="utf-8")):
            assert anchor in known, (path, anchor)


def test_every_game_has_a_page() -> None:
    for game in all_games():
        assert (ROOT / "docs" / "games" / f"{game.id}.md").exists(), game.id
