"""Citations a user can follow (issue 16): every `NNN:line` of the code and the rulings falls in a mapped section
of its instrument, and `tapete cite` names the instrument, the game and the article."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tapete.core.sources import CITATION, INSTRUMENTS, describe, locate, parse

ROOT = Path(__file__).parents[2]


def citations(text: str) -> list[tuple[str, int, int]]:
    """Each `NNN:a` / `NNN:a-b` of a text (NNN one of the instruments)."""
    found = []
    for m in CITATION.finditer(text):
        if m.group(1) in INSTRUMENTS:
            first = int(m.group(2))
            found.append((m.group(1), first, int(m.group(3) or first)))
    return found


def cited_files() -> list[Path]:
    return sorted((ROOT / "src").rglob("*.py")) + [ROOT / "docs" / "rulings.md"]


def test_every_citation_in_the_code_and_the_rulings_falls_in_a_mapped_section() -> None:
    bad, count = [], 0
    for path in cited_files():
        for seed, first, last in citations(path.read_text(encoding="utf-8")):
            count += 1
            try:
                locate(seed, first), locate(seed, last)
            except (ValueError, AssertionError) as exc:
                bad.append(f"{path.relative_to(ROOT)}: {seed}:{first}-{last}: {exc}")
    assert count > 1000, count          # the scan found the citations
    assert not bad, bad


@pytest.mark.parametrize(("citation", "game", "article"), [
    ("003:1735", "punto-banca", "VI. Reglas del juego"),
    ("001:121", "roulette-french", "IV. Reglas de la ruleta, 2. Máximos y mínimos de las apuestas, A)"),
    ("000:1805", "lototrot", "III. Reglas del juego, 9."),
    ("002:470", "punto-banca", "IV. Regras de xogo, 2. Regras da terceira carta"),
    ("003:4790", "holdem", "X. Errores e infracciones en el juego"),
    ("003:6100", "monte-banca", ""),
    ("004:5", "trente-quarante", ""),
])
def test_a_citation_names_its_game_and_article(citation: str, game: str, article: str) -> None:
    seed, line, _ = parse(citation)
    place = locate(seed, line)
    assert game in place.games
    assert place.article_text().startswith(article)


def test_the_game_of_a_citation_is_the_game_of_the_module_that_cites_it() -> None:
    """Spot checks that the map's game ranges are right: each game's own module cites inside its own game."""
    for module, game in [("games/craps/rules.py", "craps"), ("games/trente_quarante.py", "trente-quarante"),
                         ("games/wheel_of_fortune.py", "wheel-of-fortune"), ("games/lototrot.py", "lototrot")]:
        text = (ROOT / "src" / "tapete" / module).read_text(encoding="utf-8")
        places = [locate(seed, first) for seed, first, _ in citations(text)]
        own = [p for p in places if game in p.games]
        assert len(own) >= 0.8 * len(places), (module, [f"{p.seed}:{p.line} {p.heading}" for p in places if p not in own])


def test_every_instrument_has_its_bulletin_and_where_to_obtain_it() -> None:
    doc = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    for seed, inst in INSTRUMENTS.items():
        assert inst.title and inst.bulletin and inst.obtain
        assert f"`{seed}`" in doc, seed
    for bulletin in ("BOE", "BOIB", "DOG", "BOJA", "BOE-A-1979-25744"):
        assert bulletin in doc


def test_describe_prints_instrument_game_and_article() -> None:
    lines = describe("003:1735-1738")
    assert "Orden de 4 de febrero de 2010" in lines[0]
    assert any("BOJA núm. 39" in x for x in lines)
    assert any(x.strip() == "game: I.1.7. PUNTO Y BANCA — tapete: punto-banca" for x in lines)
    assert any(x.strip().startswith("article: VI. Reglas del juego") for x in lines)


@pytest.mark.parametrize("bad", ["abc", "003", "003:", "003:0", "003:99999", "999:1", "003:10-5", "001:1", "000:5"])
def test_cite_refuses_a_bad_or_unmapped_citation_with_exit_2(bad: str) -> None:
    run = subprocess.run([sys.executable, "-m", "tapete.cli", "cite", bad], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2, run
    assert run.stderr.startswith("error bad-option: ") and "Traceback" not in run.stderr + run.stdout


def test_cite_command_prints_the_article() -> None:
    run = subprocess.run([sys.executable, "-m", "tapete.cli", "cite", "003:1735"], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert "PUNTO Y BANCA" in run.stdout and "VI. Reglas del juego" in run.stdout and "BOJA" in run.stdout


def test_citations_found_in_text() -> None:
    assert citations("003:1735-1738 — punto draws; 001:81, 999:4") == [("003", 1735, 1738), ("001", 81, 81)]
    assert not re.search(CITATION, "12:30")
