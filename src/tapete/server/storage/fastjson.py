"""orjson where the server's JSON is hot and no hash is computed over the text: the database's JSON columns
(SQLAlchemy's serializer for SQLite, psycopg's for PostgreSQL), the engine-state snapshots and the log records
read back. The stdlib's json was a tenth of a busy server's CPU (docs/performance.md, third pass).

Each function stores or returns what its stdlib counterpart would, read back equal: non-str dict keys become
their JSON text as json.dumps makes them (OPT_NON_STR_KEYS); whatever orjson refuses (an int beyond 64 bits,
a text the stdlib wrote with NaN) goes through the stdlib. The audit chain's canonical text (audit.canonical)
is not made here: stored chains are verified against the stdlib's bytes.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import orjson

from tapete.engine.serialize import to_json

_OPTIONS = orjson.OPT_NON_STR_KEYS


class RawJSON:
    """A JSON value kept as the text the database returned: written back as it is (orjson.Fragment), never
    parsed. A round record holds every bet of the round as its log record has it."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return loads(self.text) == (loads(other.text) if isinstance(other, RawJSON) else other)

    __hash__ = None  # type: ignore[assignment]


def _fragment(value: Any) -> Any:
    if isinstance(value, RawJSON):
        return orjson.Fragment(value.text)
    raise TypeError(f"cannot serialise {type(value).__name__}")


def _parsed(value: Any) -> Any:
    if isinstance(value, RawJSON):
        return loads(value.text)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(value: Any) -> str:
    """json.dumps(value), as orjson writes it (str: what SQLAlchemy's JSON type binds)."""
    try:
        return orjson.dumps(value, default=_fragment, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(value, default=_parsed)


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _fraction(value: Any) -> str:
    if isinstance(value, Fraction):                 # serialize.to_json's form: 'a/b'
        return f"{value.numerator}/{value.denominator}"
    raise TypeError(f"cannot serialise {type(value).__name__}")


def state_text(state: Any) -> str:
    """json.dumps(to_json(state)) in one pass of C: orjson walks the dataclasses itself."""
    try:
        return orjson.dumps(state, default=_fraction, option=_OPTIONS).decode()
    except TypeError:       # a key orjson cannot write (a tuple): the engine's own walk says what it can
        return json.dumps(to_json(state))


def state_doc(state: Any) -> Any:
    """to_json(state), the same value (orjson's round trip is faster than the Python walk)."""
    return orjson.loads(state_text(state))
