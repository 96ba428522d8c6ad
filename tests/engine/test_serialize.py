"""State JSON round trip."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction

from tapete.engine.serialize import from_json, to_json


@dataclass
class Inner:
    amount: Fraction
    tags: tuple[str, ...] = ()


@dataclass
class Outer:
    name: str
    inner: list[Inner] = field(default_factory=list)
    table: dict[str, int] = field(default_factory=dict)
    maybe: int | None = None
    nested: dict[str, Inner] | None = None


def test_round_trip() -> None:
    value = Outer("x", [Inner(Fraction(5, 2), ("a",))], {"minimum": 100}, None, {"k": Inner(Fraction(3))})
    assert from_json(Outer, json.loads(json.dumps(to_json(value)))) == value
