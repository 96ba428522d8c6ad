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


def _documented(name: str, text: str) -> bool:
    return f"`{name}`" in text


def test_every_name_a_game_accepts_is_in_the_shared_vocabulary_or_ours() -> None:
    """Kinds, verbs and table keys: FORMAT.md / VOCABULARY.md define them, or docs/vocabulary.md does."""
    shared = ROOT.parent / "shared" / "conformance"
    text = "".join((shared / f).read_text(encoding="utf-8") for f in ("FORMAT.md", "VOCABULARY.md"))
    text += (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    for game in all_games():
        info = game.info()
        names = [k["kind"] for k in info["kinds"]] + [v if isinstance(v, str) else v["verb"] for v in info["verbs"]]
        names += [t["key"] for t in info["table"]]
        for name in names:
            assert _documented(name, text), (game.id, name)


def test_every_error_code_is_documented() -> None:
    shared = ROOT.parent / "shared" / "conformance" / "FORMAT.md"
    text = shared.read_text(encoding="utf-8") + (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    for path in (ROOT / "src").rglob("*.py"):
        for code in re.findall(r'TapeteError\("([a-z-]+)"', path.read_text(encoding="utf-8")):
            assert _documented(code, text), (path.name, code)
