"""JSON round trip for game states: dataclasses of plain data, rebuilt from their type hints.

A server persists the state after every event and resumes a round after a crash, so every state must
survive `from_json(type(s), json.loads(json.dumps(to_json(s)))) == s`. Fractions travel as 'a/b' strings.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from fractions import Fraction
from functools import cache
from typing import Any, Union, get_args, get_origin


def to_json(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str | float):
        return value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    raise TypeError(f"cannot serialise {type(value).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _has_default(f: dataclasses.Field[Any]) -> bool:
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def from_json(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from its JSON form."""
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_json(arg, data)
            except (TypeError, ValueError, KeyError) as exc:
                errors.append(exc)
        raise ValueError(f"no member of {tp} accepts {data!r}: {errors}")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise ValueError(f"{data!r} not in {tp}")
        return data
    if origin is list:
        (item,) = get_args(tp) or (Any,)
        return [from_json(item, v) for v in data]
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        return tuple(from_json(a, v) for a, v in zip(args, data, strict=True))
    if origin is dict:
        kt, vt = get_args(tp) or (str, Any)
        return {from_json(kt, k) if kt is not str else k: from_json(vt, v) for k, v in data.items()}
    if tp is Fraction:
        if isinstance(data, int):
            return Fraction(data)
        return Fraction(data)
    if tp is int and isinstance(data, str):
        return int(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        # A field the stored state lacks takes its default: a state saved by the previous release (a round in
        # progress across an upgrade) still loads when a release adds a field with a default.
        kwargs = {f.name: from_json(hints[f.name], data[f.name]) for f in dataclasses.fields(tp)
                  if f.init and (f.name in data or not _has_default(f))}
        return tp(**kwargs)
    if tp in (int, str, bool, float):
        if not isinstance(data, tp):
            raise TypeError(f"expected {tp.__name__}, got {data!r}")
        return data
    return data
