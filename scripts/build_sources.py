#!/usr/bin/env python3
"""Build src/tapete/core/sources.json: which game and which article each line of each instrument belongs to.

    python scripts/build_sources.py SEEDS_DIR

SEEDS_DIR holds the project's reference transcriptions of the instruments (`000_*.txt` ... `004_*.txt`, the
files whose line numbers every `NNN:line` citation counts). The script reads their headings — the catalog's
numbered games, the Roman-numbered parts, the numbered paragraphs and lettered sub-paragraphs — and writes
the map that `tapete cite` and `tests/core/test_sources.py` use. Nothing reads the transcriptions at run or
test time; re-run this only when a transcription changes, and review the diff.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).parents[1] / "src" / "tapete" / "core" / "sources.json"

# The catalog's heading -> tapete's game ids. Checked in order: the first match wins.
GAMES: list[tuple[str, list[str]]] = [
    ("ABREVIADA", ["roulette-french-short"]),
    ("AMERICAN", ["roulette-american"]),
    ("FORTUN", ["wheel-of-fortune"]),
    ("RULETA", ["roulette-french"]),
    ("BLACK", ["blackjack"]),
    ("BOULE", ["boule"]),
    ("TREINTA", ["trente-quarante"]),
    ("TRINTA", ["trente-quarante"]),
    ("DADOS", ["craps"]),
    ("PUNTO", ["punto-banca"]),
    ("DOS PAÑOS", ["baccarat-two-tables"]),
    ("DOUS PANOS", ["baccarat-two-tables"]),
    ("CHEMIN", ["chemin-de-fer"]),
    ("BACARRÁ", ["chemin-de-fer", "baccarat-two-tables"]),
    ("BINGO", ["bingo"]),
    ("SIN DESCARTE", ["poker-sin-descarte"]),
    ("SINT", ["poker-sintetico"]),
    ("TRIJOKER", ["trijoker"]),
    ("TRIPÓQUER", ["tripoker"]),
    ("PAI GOW", ["pai-gow"]),
    ("CONTRAPARTIDA", ["poker-sin-descarte", "trijoker", "tripoker", "pai-gow"]),
    ("SEVEN STUD", ["seven-stud"]),
    ("FIVE STUD", ["five-stud"]),
    ("OMAHA CINCO", ["omaha-5"]),
    ("HIGH LOW", ["omaha-hilo"]),
    ("OMAHA", ["omaha"]),
    ("DOBLE HOLD", ["double-holdem"]),
    ("HOLD", ["holdem"]),
    ("DESCUBIERTO", ["seven-stud", "five-stud", "omaha", "omaha-5", "omaha-hilo", "holdem", "double-holdem",
                     "poker-sintetico"]),
    ("CUBIERTO", ["draw-poker"]),
    ("CÍRCULO", ["draw-poker", "seven-stud", "five-stud", "omaha", "omaha-5", "omaha-hilo", "holdem",
                 "double-holdem", "poker-sintetico"]),
    ("CASINO MONTE", ["casino-monte"]),
    ("MONTE O BANCA", ["monte-banca"]),
    ("LOTOTROT", ["lototrot"]),
    ("PROMOTROT", ["promotrot"]),
]

# Per instrument: the heading of a game of its catalog, the first line of the instrument's own text (its
# articles, before the catalog) and the last line that belongs to it (the rest of a bulletin page is another act).
LAYOUT = {
    "000": {"game": r"^(\d{2})\.? ([«A-ZÁÉÍÓÚ][^a-z]{3,})$", "start": 27, "end": 1947},
    "001": {"game": r"^#+ \**(\d{2})\. ([A-ZÁÉÍÓÚ][^a-z]{3,}?)\**$", "start": 9, "end": None},
    "002": {"game": r"^(\d{2})\. ([A-ZÁÉÍÓÚ].{3,60})$", "start": 10, "end": None},
    "003": {"game": r"^(I\.1\.[0-9A-Z.)]+)\s+([«A-ZÁÉÍÓÚ][^a-z]{3,}?)\s*$", "start": 3, "end": None},
    "004": {"game": r"^(\d)\. ([A-ZÁÉÍÓÚ][^a-z]{3,})$", "start": 1, "end": None,
            "opening": {"heading": "TREINTA Y CUARENTA (fragment, from its rule 1.b)", "games": ["trente-quarante"]}},
}

PART = re.compile(r"^(?:#+\s*)?[*_]*([IVX]{1,4})\.?\s+([A-Za-zÁÉÍÓÚáéíóú].{2,70}?)[*_]*\s*$")
PARAGRAPH = re.compile(r"^(?:#+\s*)?[*_]*(\d{1,2})\.?\s*(?:-\s*)?([A-ZÁÉÍÓÚ«\"(][^\n]*)$")
SUBPARAGRAPH = re.compile(r"^(\d{1,2})\.(\d{1,2})\.?\s+[A-ZÁÉÍÓÚ«]")
LETTER = re.compile(r"^(?:#+\s*)?[*_]*([A-H])\)\s+(\S.*)$")


def game_ids(heading: str) -> list[str]:
    upper = heading.upper()
    for key, ids in GAMES:
        if key in upper:
            return ids
    raise SystemExit(f"no game for heading {heading!r}")


def title(text: str) -> str:
    """A heading's own words: markdown and trailing punctuation off, at most about sixty characters."""
    text = re.sub(r"[*_#]", "", text).strip().rstrip(".:")
    return text if len(text) <= 60 else text[:57].rsplit(" ", 1)[0] + "…"


def build(seed: str, lines: list[str]) -> dict:
    layout = LAYOUT[seed]
    end = layout["end"] or len(lines)
    game = re.compile(layout["game"])
    sections: list[dict] = []
    headings: list[list] = []
    current: dict | None = None
    for n in range(layout["start"], end + 1):
        line = lines[n - 1].strip()
        m = game.match(line)
        if m:
            if current:
                current["to"] = n - 1
            current = {"from": n, "to": end, "heading": title(f"{m.group(1)} {m.group(2)}"),
                       "games": game_ids(m.group(2))}
            sections.append(current)
            continue
        if current is None and "opening" in layout:
            current = {"from": n, "to": end, **layout["opening"]}
            sections.append(current)
        if current is None:
            if not sections:
                sections.append({"from": layout["start"], "to": n, "heading": "the instrument's own articles",
                                 "games": []})
            sections[0]["to"] = n
            if re.match(r"^(?:#+\s*)?\**(Art[íi]culo|Artigo|Disposici[óo]n|Disposición)", line):
                headings.append([n, 1, title(line)])
            continue
        if (m := PART.match(line)) and len(line) <= 80:
            headings.append([n, 1, f"{m.group(1)}. {title(m.group(2))}"])
        elif m := PARAGRAPH.match(line):
            # a paragraph's own title only where the line is a heading (003's short lines are wrapped prose)
            short = len(line) <= (70 if seed == "003" else 90) and (line.endswith((".", ":")) or seed != "003") \
                and not line.endswith(("-", ","))
            headings.append([n, 2, f"{m.group(1)}. {title(m.group(2))}" if short else f"{m.group(1)}."])
        elif m := SUBPARAGRAPH.match(line):
            headings.append([n, 3, f"{m.group(1)}.{m.group(2)}"])
        elif m := LETTER.match(line):
            headings.append([n, 3, f"{m.group(1)})"])
    return {"lines": len(lines), "sections": sections, "headings": headings}


def main(seeds_dir: str) -> None:
    out = {}
    for seed in sorted(LAYOUT):
        (path,) = Path(seeds_dir).glob(f"{seed}_*.txt")
        out[seed] = build(seed, path.read_text(encoding="utf-8").splitlines())
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
    text = text.replace('],[', '],\n[').replace('},{', '},\n{')
    OUT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {OUT}: " + ", ".join(f"{s} {len(v['sections'])} sections" for s, v in out.items()))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
