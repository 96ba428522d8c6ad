"""The golden cases, shipped as package data (`tapete/lab/golden/*.jsonl`) so that `tapete conformance export`
works from an installed package, not only from a checkout.

A line is one case in the shared format's own fields (docs/format.md, Worked examples): `name` (a case id first,
then what it shows), `doc` (the round document), `expect` (per bet staked/returned/status, optionally `house` and
`rounds`, or `{"error": CODE}`), and optionally `note` (why the case reads as it does, e.g. a ruling). Every line
is a JSON object: the files are valid JSONL (no comment lines).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from tapete.core.jurisdictions import JURISDICTIONS

CITATION = re.compile(r"\b\d{3}:\d+(?:-\d+)?\b")
RULING = re.compile(r"docs/rulings\.md#([a-z0-9-]+)")
CASE_KEYS = {"name", "doc", "expect", "note"}
INVALID = "_invalid"             # the suite of the cases whose document names no known game or jurisdiction
EXAMPLES = "examples.jsonl"      # the worked examples outside checkers start from (issue 16), names without ids


@dataclass(frozen=True)
class Case:
    """One golden case and where it comes from (file stem and line, for messages and JUnit names)."""
    name: str
    doc: Any
    expect: dict[str, Any]
    source: str
    line: int
    note: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def case_id(self) -> str:
        return self.name.split()[0]

    @property
    def game(self) -> str:
        """The game id, or `_invalid` for a document that names no game tapete has (it tests that refusal)."""
        g = self.doc.get("game") if isinstance(self.doc, dict) else None
        return g if isinstance(g, str) and g in _game_ids() else INVALID

    @property
    def jurisdiction(self) -> str:
        j = self.doc.get("jurisdiction") if isinstance(self.doc, dict) else None
        return j if isinstance(j, str) and j in JURISDICTIONS else INVALID

    def line_document(self) -> dict[str, Any]:
        """The case as a line of a kit file: the shared format's fields, never renamed, plus `articles`."""
        out: dict[str, Any] = {"name": self.name}
        if self.note:
            out["note"] = self.note
        out.update(doc=self.doc, expect=self.expect, articles=articles(self))
        return out


@cache
def _game_ids() -> frozenset[str]:
    from tapete.catalog import all_games

    return frozenset(g.id for g in all_games())


def golden_dir() -> Any:
    return resources.files("tapete.lab").joinpath("golden")


def golden_files() -> list[str]:
    """The file names of the golden suites: one per game (named after it), then the worked examples."""
    names = sorted(p.name for p in golden_dir().iterdir() if p.name.endswith(".jsonl"))
    return [n for n in names if n != EXAMPLES] + [EXAMPLES]


def parse_line(text: str, source: str, line: int) -> Case:
    """A JSONL line -> Case; ValueError names the file and line when the line is not a case."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source}:{line}: not JSON ({exc.msg})") from None
    if not isinstance(raw, dict) or not {"name", "doc", "expect"} <= set(raw):
        raise ValueError(f"{source}:{line}: a case is an object with name, doc and expect")
    extra = {k: v for k, v in raw.items() if k not in CASE_KEYS}
    return Case(raw["name"], raw["doc"], raw["expect"], source, line, raw.get("note"), extra)


def read_cases(text: str, source: str) -> Iterator[Case]:
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield parse_line(line, source, n)


@cache
def golden_cases() -> tuple[Case, ...]:
    """Every golden case tapete has, in file order."""
    out: list[Case] = []
    for name in golden_files():
        out += read_cases(golden_dir().joinpath(name).read_text(encoding="utf-8"), name.removesuffix(".jsonl"))
    return tuple(out)


@cache
def _rule_sources(game_id: str, jurisdiction: str) -> tuple[str, ...]:
    """The sources of the rules that define a game's bets and what they pay, in one jurisdiction."""
    from tapete.catalog import get_game

    try:
        rules = get_game(game_id).rules_for(jurisdiction)
    except Exception:        # an unknown game or jurisdiction is itself what such a case tests: no article
        return ()
    return tuple(s for name, _, s in rules.items() if "kind" in name or "payout" in name or name == "pays")


def articles(case: Case) -> list[str]:
    """The articles a case tests, as tapete knows them: the citations and rulings its `note` names, those tapete's
    own settlement of it prints (log lines, an error's source), and the jurisdiction's articles that define the
    bets and their payouts (every case stakes bets under them). Sorted, each once."""
    from tapete.conformance.document import settle_document

    texts = [case.note or ""]
    answer = settle_document(case.doc)
    texts += [str(x) for x in answer.get("log", [])]
    if "error" in answer:
        texts.append(str(answer["error"].get("source") or ""))
    texts += _rule_sources(case.game, case.jurisdiction)
    found = {m.group(0) for t in texts for m in CITATION.finditer(t)}
    found |= {f"rulings#{m.group(1)}" for t in texts for m in RULING.finditer(t)}
    return sorted(found)


def golden_path() -> Path:
    """The golden folder as a filesystem path (the package is installed as files, never zipped)."""
    return Path(str(golden_dir()))
