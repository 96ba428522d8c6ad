"""The documentation the rules data points to exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tapete.catalog import all_games

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


def contract() -> str:
    """The round format's two pages, which are the project's own (issue 16)."""
    return "".join((ROOT / "docs" / f).read_text(encoding="utf-8") for f in ("format.md", "vocabulary.md"))


def test_every_name_a_game_accepts_is_in_the_format_or_the_vocabulary() -> None:
    """Kinds, verbs and table keys: docs/format.md or docs/vocabulary.md defines each of them."""
    text = contract()
    for game in all_games():
        info = game.info()
        names = [k["kind"] for k in info["kinds"]] + [v if isinstance(v, str) else v["verb"] for v in info["verbs"]]
        names += [t["key"] for t in info["table"]]
        for name in names:
            assert _documented(name, text), (game.id, name)


def test_every_error_code_is_documented() -> None:
    text = contract()
    for path in (ROOT / "src").rglob("*.py"):
        for code in re.findall(r'TapeteError\("([a-z-]+)"', path.read_text(encoding="utf-8")):
            assert _documented(code, text), (path.name, code)


# -- issue 16: the clone is the whole product ------------------------------------------------------
OUTSIDE = re.compile(r"\.\.[/]shared|/work[/]shared|shared[/](?:conformance|seeds|spec)\b|\b(?:FORMAT|VOCABULARY|DESIGN)\.md")


def tracked(*paths: str) -> list[Path]:
    """The files git tracks under `paths` (all files when this is not a git checkout, e.g. an sdist)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True)
        names = [n for n in out.stdout.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
    if names:
        return [ROOT / n for n in names]
    return [p for path in paths for p in ([ROOT / path] if (ROOT / path).is_file() else (ROOT / path).rglob("*"))
            if p.is_file()]


def test_nothing_in_the_repository_points_outside_the_clone() -> None:
    """No code, test, document or link reads or names a file of the reading material beside the checkout: the format, vocabulary, sources and
    examples are docs/format.md, docs/vocabulary.md, docs/sources.md and src/tapete/lab/golden/."""
    offenders = []
    for path in tracked("src", "tests", "docs", "README.md", "benchmarks", "Makefile", "examples", ".ci"):
        if path.suffix in {".png", ".db", ".pyc"} or path == Path(__file__):
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        offenders += [f"{path.relative_to(ROOT)}:{n}" for n, line in enumerate(text.splitlines(), 1) if OUTSIDE.search(line)]
    assert not offenders, offenders


def test_the_format_pages_are_in_the_repository() -> None:
    text = contract()
    for name in ("bad-document", "shoe-exhausted", "act.by", "house.net", "at_risk", "rounding", "cut-card"):
        assert name in text, name
    assert (ROOT / "src" / "tapete" / "lab" / "golden" / "examples.jsonl").is_file()
