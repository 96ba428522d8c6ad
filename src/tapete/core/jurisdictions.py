"""The four jurisdictions and the instrument each catalog comes from.

Seed prefixes name the instruments (docs/sources.md): every citation in tapete is written `seed:lines`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Jurisdiction:
    code: str          # ISO 3166-2
    name: str
    instrument: str    # the regulation that holds its catalog
    seed: str          # prefix of the seed file with its text
    language: str


JURISDICTIONS: dict[str, Jurisdiction] = {
    j.code: j
    for j in (
        Jurisdiction("ES", "Spain (national catalog)", "Orden de 9 de octubre de 1979, Catálogo de Juegos", "001", "es"),
        Jurisdiction("ES-IB", "Illes Balears", "Orden del Consejero de Interior de 30 de diciembre de 2005", "000", "es"),
        Jurisdiction("ES-GA", "Galicia", "Decreto 177/2007", "002", "gl"),
        Jurisdiction("ES-AN", "Andalucía", "Orden de 4 de febrero de 2010", "003", "es"),
    )
}

INSTRUMENT_BY_SEED = {j.seed: j.instrument for j in JURISDICTIONS.values()}
INSTRUMENT_BY_SEED["004"] = "fragment (Treinta y cuarenta / Dados)"


def cite(source: str) -> str:
    """'001:119-123' -> 'Orden de 9 de octubre de 1979, Catálogo de Juegos (001:119-123)'.

    A source may list several citations separated by '; '; each names its instrument.
    """
    parts = []
    for part in source.split(";"):
        part = part.strip()
        seed = part.split(":", 1)[0]
        instrument = INSTRUMENT_BY_SEED.get(seed)
        parts.append(f"{instrument} ({part})" if instrument else part)
    return "; ".join(parts)


def own_citations(source: str, jurisdiction: str) -> str:
    """The parts of a '; '-separated source that cite `jurisdiction`'s own text (and any reading, `R: ...`): a rule
    written once for every catalog then cites, in a document of one jurisdiction, that jurisdiction's article only.
    A source with no citation of that text is returned whole."""
    seed = JURISDICTIONS[jurisdiction].seed if jurisdiction in JURISDICTIONS else None
    parts = [p.strip() for p in source.split(";")]
    cited = [p for p in parts if p.split(":", 1)[0] in INSTRUMENT_BY_SEED]
    if seed is None or not any(p.startswith(f"{seed}:") for p in cited):
        return source
    return "; ".join(p for p in parts if p not in cited or p.startswith(f"{seed}:"))
