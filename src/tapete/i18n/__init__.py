"""The one message catalog: every sentence a player or croupier reads, in each language tapete speaks.

A language is a folder of data files (`i18n/<lang>/<area>.json`: `web` for the pages, `play` for the terminal
and the player's sentences built from the engine's states and error codes). Adding a language (Galician,
Catalan: the languages of two of the catalogs) is adding a folder; a key it lacks falls back to Spanish, then
English. Messages name their placeholders (`{name}`, `{amount}`) and are written whole: a sentence about the
player and one about another player are two keys, never a name spliced into a conjugated verb.

Amounts are integer cents (or exact fractions of a cent) wrapped in `Money`; `render` writes them in the
language's currency format (es `1.234,50 €`, en `€1,234.50`).
"""

from __future__ import annotations

import json
import os
import string
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
DEFAULT = "es"
FALLBACK = {"gl": "es", "ca": "es", "es": "en", "en": "es"}   # where a missing key is looked up next
AREAS = ("web", "play", "staff")   # staff: the staff pages (server/http/web: staff_strings)


@dataclass(frozen=True)
class Money:
    """An amount in cents that the catalog writes in the language's currency format."""

    cents: int | Fraction


def languages() -> tuple[str, ...]:
    """The languages that have a folder in the catalog (es and en are complete; others may be partial)."""
    return tuple(sorted(p.name for p in HERE.iterdir()
                        if p.is_dir() and any((p / f"{name}.json").exists() for name in AREAS)))


@cache
def _file(lang: str, area: str) -> dict[str, str]:
    path = HERE / lang / f"{area}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def _chain(lang: str) -> list[str]:
    chain = [lang]
    while (nxt := FALLBACK.get(chain[-1])) and nxt not in chain:
        chain.append(nxt)
    return chain + [code for code in (DEFAULT, "en") if code not in chain]   # any language ends in es, then en


@cache
def area(lang: str, name: str) -> dict[str, str]:
    """All the keys of one area in `lang`, the missing ones filled from the fallback languages."""
    merged: dict[str, str] = {}
    for code in reversed(_chain(lang)):
        merged.update(_file(code, name))
    return merged


def message(lang: str, key: str) -> str:
    """The raw message of `key` (placeholders unfilled); KeyError when no language has it."""
    for name in AREAS:
        found = area(lang, name).get(key)
        if found is not None:
            return found
    raise KeyError(key)


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message: 'You raise to {amount}' -> {'amount'}."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def money(lang: str, cents: int | Fraction) -> str:
    """Cents in the language's currency format: es '1.234,50 €', en '€1,234.50' (exact fractions: 4 decimals)."""
    fmt = area(lang, "play")
    value = Fraction(cents)
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value.denominator == 1:
        whole, rest = divmod(int(value), 100)
        decimals = f"{rest:02d}"
    else:
        whole_text, decimals = f"{float(value) / 100:.4f}".split(".")
        whole = int(whole_text)
    number = f"{whole:,}".replace(",", fmt["money.group"]) + fmt["money.decimal"] + decimals
    return sign + fmt["money.pattern"].format(n=number)


def render(lang: str, key: str, **params: Any) -> str:
    """The message of `key` in `lang` with its placeholders filled; `Money` values in the currency format."""
    values = {k: money(lang, v.cents) if isinstance(v, Money) else v for k, v in params.items()}
    return message(lang, key).format(**values)


def from_locale(environ: dict[str, str] | None = None) -> str:
    """The session language from LC_ALL / LC_MESSAGES / LANG ('en_GB.UTF-8' -> 'en'); Spanish otherwise."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            code = value[:2].lower()
            return code if code in languages() else DEFAULT
    return DEFAULT


def decimal(lang: str, value: float, places: int) -> str:
    """A figure with the language's decimal mark: es '5,2637', en '5.2637'."""
    return f"{value:.{places}f}".replace(".", area(lang, "play")["money.decimal"])
