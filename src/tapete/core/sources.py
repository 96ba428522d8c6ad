"""Where a citation points: the instrument, the game and the article of `NNN:line`.

Every rule in tapete cites `seed:lines` — line numbers of the project's reference transcription of each
instrument (docs/sources.md). `sources.json` (built by scripts/build_sources.py from those transcriptions) maps
each instrument's line ranges to the game of the catalog they belong to and lists the headings inside them, so
that `tapete cite 003:1735` can name the article without the transcription at hand.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tapete.core.jurisdictions import JURISDICTIONS


@dataclass(frozen=True)
class Instrument:
    seed: str
    title: str          # the official title, in the text's language
    bulletin: str       # where and when it was published
    obtain: str         # where a reader finds it
    jurisdiction: str   # ISO 3166-2, or "" for the fragment
    language: str


INSTRUMENTS: dict[str, Instrument] = {
    i.seed: i
    for i in (
        Instrument("000", "Orden del Consejero de Interior de 30 de diciembre de 2005, por la que se aprueba el Catálogo "
                   "de juegos de la Comunidad Autónoma de les Illes Balears",
                   "Butlletí Oficial de les Illes Balears (BOIB), Consejería de Interior, entry 294; in force the day "
                   "after its publication (early January 2006)",
                   "the BOIB archive, https://www.caib.es/eboibfront/ (search the title)", "ES-IB", "es"),
        Instrument("001", "Orden de 9 de octubre de 1979 por la que se aprueba la versión definitiva del Catálogo de Juegos",
                   "Boletín Oficial del Estado, «BOE» núm. 261, de 31 de octubre de 1979 (BOE-A-1979-25744); "
                   "consolidated text, last amended 11 February 1984",
                   "https://www.boe.es/buscar/act.php?id=BOE-A-1979-25744", "ES", "es"),
        Instrument("002", "Decreto 177/2007, do 30 de agosto, polo que se modifica o Catálogo de xogos da Comunidade "
                   "Autónoma de Galicia, aprobado polo Decreto 166/1986, do 4 de xuño",
                   "Diario Oficial de Galicia, DOG núm. 187, 26 de setembro de 2007, páx. 15.870",
                   "the DOG archive, https://www.xunta.gal/diario-oficial-galicia (DOG 187/2007)", "ES-GA", "gl"),
        Instrument("003", "Orden de 4 de febrero de 2010, por la que se determinan las normas por las que han de regirse "
                   "las modalidades de los juegos exclusivos de Casinos de Juego de la Comunidad Autónoma de Andalucía",
                   "Boletín Oficial de la Junta de Andalucía, BOJA núm. 39, de 25 de febrero de 2010",
                   "the BOJA archive, https://www.juntadeandalucia.es/boja/ (BOJA 39/2010)", "ES-AN", "es"),
        Instrument("004", "Fragment of a regional catalog: the end of Treinta y cuarenta and the heading of Dados o craps",
                   "not identified (the transcription has no heading); cited only for the details it adds",
                   "docs/sources.md quotes what tapete takes from it", "", "es"),
    )
}

CITATION = re.compile(r"\b(\d{3}):(\d+)(?:-(\d+))?\b")


@dataclass(frozen=True)
class Place:
    """What one cited line belongs to."""
    seed: str
    line: int
    heading: str                 # the catalog's heading of the game, e.g. '07. PUNTO Y BANCA'
    games: tuple[str, ...]       # tapete's game ids (several for a part common to a family)
    article: tuple[str, ...]     # the headings above the line, outermost first: part, paragraph, sub-paragraph

    @property
    def instrument(self) -> Instrument:
        return INSTRUMENTS[self.seed]

    def article_text(self) -> str:
        return ", ".join(self.article) if self.article else "(before its first heading)"


@cache
def _map() -> dict:
    return json.loads(resources.files("tapete.core").joinpath("sources.json").read_text(encoding="utf-8"))


def locate(seed: str, line: int) -> Place:
    """The game and article of one line; ValueError when the seed is unknown or the line in no mapped section."""
    data = _map().get(seed)
    if data is None:
        raise ValueError(f"no instrument {seed!r}: the instruments are {', '.join(sorted(_map()))} (docs/sources.md)")
    if line < 1:
        raise ValueError(f"{seed}:{line}: line numbers start at 1")
    if line > data["lines"]:
        raise ValueError(f"{seed}:{line} is past the end of {seed}, which has {data['lines']} lines")
    section = next((s for s in data["sections"] if s["from"] <= line <= s["to"]), None)
    if section is None:
        raise ValueError(f"{seed}:{line} is outside the instrument's text (the bulletin's page around it holds other acts)")
    article: list[str] = []
    for at, level, text in data["headings"]:
        if at > line:
            break
        if at >= section["from"]:
            del article[level - 1:]
            article += [""] * (level - 1 - len(article))
            article.append(text)
    return Place(seed, line, section["heading"], tuple(section["games"]), tuple(a for a in article if a))


def parse(text: str) -> tuple[str, int, int]:
    """'003:1735' or '003:1735-1738' -> (seed, first, last); ValueError with the expected form otherwise."""
    m = CITATION.fullmatch(text.strip())
    if not m:
        raise ValueError(f"{text!r} is not a citation: write NNN:LINE or NNN:FIRST-LAST, e.g. 003:1735 or 001:119-123")
    first = int(m.group(2))
    last = int(m.group(3) or first)
    if last < first:
        raise ValueError(f"{text!r}: the range ends before it starts")
    return m.group(1), first, last


def describe(text: str) -> list[str]:
    """The lines `tapete cite` prints: the instrument, where to obtain it, the game and the article."""
    seed, first, last = parse(text)
    if seed not in INSTRUMENTS:
        raise ValueError(f"no instrument {seed!r}: the instruments are {', '.join(sorted(INSTRUMENTS))} (docs/sources.md)")
    start, end = locate(seed, first), locate(seed, last)
    inst = INSTRUMENTS[seed]
    where = JURISDICTIONS.get(inst.jurisdiction)
    lines = [f"{text.strip()}: {inst.title}",
             f"  jurisdiction: {where.name} ({where.code})" if where else "  jurisdiction: unknown (fragment)",
             f"  published: {inst.bulletin}",
             f"  obtain it: {inst.obtain}",
             f"  game: {start.heading}" + (f" — tapete: {', '.join(start.games)}" if start.games else "")]
    lines.append(f"  article: {start.article_text()}")
    if (end.heading, end.article) != (start.heading, start.article):
        lines.append(f"  to: {end.heading}, {end.article_text()} (line {last})")
    return lines
