"""Rules as data: a frozen dataclass per game, one instance per jurisdiction, a citation on every field."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rules:
    """Base of every game's rules. `sources` maps each field name to its seed citation ('001:119-123').

    A field whose value rests on a reading of a silent text cites the ruling too ('R: docs/rulings.md#...').
    """

    jurisdiction: str
    sources: Mapping[str, str]

    def items(self) -> Iterator[tuple[str, Any, str]]:
        """(field, value, citation) for every rule field, in declaration order."""
        for f in dataclasses.fields(self):
            if f.name in ("jurisdiction", "sources"):
                continue
            yield f.name, getattr(self, f.name), self.sources.get(f.name, "")

    def missing_sources(self) -> list[str]:
        return [name for name, _, source in self.items() if not source]
