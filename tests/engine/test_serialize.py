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



@dataclass
class Released:
    """A state as the next release has it: `b` and `c` were added with defaults."""

    a: int
    b: list[int] = field(default_factory=list)
    c: str = "x"


def test_a_state_saved_before_a_field_was_added_loads_with_the_default() -> None:
    """A round in progress across an upgrade: the new release's fields with defaults are filled in (issue 27's
    blackjack `played`, chemin de fer's `giver`...); a field without a default is still required."""
    saved = to_json(Released(3, [1], "y"))
    del saved["b"], saved["c"]
    assert from_json(Released, saved) == Released(3)
    try:
        from_json(Released, {"b": [1]})
    except KeyError:
        pass
    else:
        raise AssertionError("a state without its required field loaded")
