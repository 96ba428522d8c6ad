"""`tapete cite SOURCE`: any source string tapete prints, resolved — seed citations (`003:1735-1738`, a bare line
continuing the seed before it, `(remarks)`), the project's rulings (`R: docs/rulings.md` + `#ANCHOR`, or
`rulings#anchor`) and the round vocabulary's sections (`docs/vocabulary.md §14-4`). docs/ is not package data:
the rulings and vocabulary travel in docs_index.json, built by scripts/build_docs_index.py and kept in sync by a
test."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from tapete.core.sources import describe

RULING = re.compile(r"^(?:R:\s*)?(?:docs/)?rulings(?:\.md)?#([a-z0-9-]+)$")
VOCABULARY = re.compile(r"^(?:docs/)?vocabulary(?:\.md)?\s*§\s*(\d+(?:\.\d+)?(?:-\d+)?)$")
SEED = re.compile(r"^(\d{3}):(\d+(?:-\d+)?)\s*(?:\((.*)\))?$")
BARE = re.compile(r"^(\d+(?:-\d+)?)\s*(?:\((.*)\))?$")


@cache
def _index() -> dict:
    return json.loads(resources.files("tapete.core").joinpath("docs_index.json").read_text(encoding="utf-8"))


def split_source(text: str) -> list[str]:
    """'001:811; 815 (a; b); R: <a ruling>' -> its parts, split at '; ' outside parentheses."""
    parts, depth, current = [], 0, []
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def ruling(anchor: str) -> list[str]:
    found = _index()["rulings"].get(anchor)
    if found is None:
        raise ValueError(f"no ruling #{anchor} in docs/rulings.md")
    return [f"rulings#{anchor}: a reading of tapete's (docs/rulings.md#{anchor}), {found['family']}", *_indent(found["text"])]


def vocabulary(section: str) -> list[str]:
    found = _index()["vocabulary"].get(section)
    if found is None:
        raise ValueError(f"no section §{section} in docs/vocabulary.md")
    return [f"docs/vocabulary.md {found['title']}", *_indent(found["text"])]


def _indent(text: str) -> list[str]:
    return ["  " + line if line else "" for line in text.splitlines()]


def resolve(text: str) -> list[str]:
    """The lines `tapete cite` prints for a whole source string; ValueError names the part it cannot resolve."""
    parts = split_source(text)
    if not parts:
        raise ValueError("nothing to cite: write NNN:LINE, NNN:FIRST-LAST, rulings#ANCHOR or a source tapete printed")
    lines: list[str] = []
    seed = None
    for part in parts:
        if m := RULING.match(part):
            lines += ruling(m.group(1))
        elif m := VOCABULARY.match(part):
            lines += vocabulary(m.group(1))
        elif m := SEED.match(part):
            seed = m.group(1)
            lines += _seed(seed, m.group(2), m.group(3))
        elif (m := BARE.match(part)) and seed is not None:
            lines += _seed(seed, m.group(1), m.group(2))
        else:
            raise ValueError(f"{part!r} is not a citation: write NNN:LINE or NNN:FIRST-LAST (e.g. 003:1735), "
                             "rulings#ANCHOR, or a source as tapete prints it")
    return lines


def _seed(seed: str, lines: str, remark: str | None) -> list[str]:
    out = describe(f"{seed}:{lines}")
    return out + ([f"  remark: {remark}"] if remark else [])
