"""The single-zero wheel and cloth: colours, wheel order, and every spot a chip may sit on.

Geometry (D) from the cloth of 001:125-139: rows {3r-2, 3r-1, 3r}, columns by n mod 3, dozens of 12.
"""

from __future__ import annotations

from collections.abc import Iterable

NUMBERS = tuple(range(37))

# 001:46; 000:90; 002:104; 003:144-150 — digit sum even is black, except 19; 10 and 29 also black.
BLACK = frozenset({2, 4, 6, 8, 10, 11, 13, 15, 17, 20, 22, 24, 26, 28, 29, 31, 33, 35})
RED = frozenset(n for n in range(1, 37) if n not in BLACK)

# Standard single-zero order, clockwise (R: no seed gives it; spec appendix A checks it against 000:244-262).
WHEEL_ORDER = (0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20,
               14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26)

# The simple chances (suertes sencillas), 001:103; 0 is in none of them.
SIMPLE_CHANCES: dict[str, frozenset[int]] = {
    "red": RED,
    "black": BLACK,
    "even": frozenset(n for n in range(1, 37) if n % 2 == 0),
    "odd": frozenset(n for n in range(1, 37) if n % 2 == 1),
    "low": frozenset(range(1, 19)),     # falta
    "high": frozenset(range(19, 37)),   # pasa
}

ZERO_TRIOS = ((0, 1, 2), (0, 2, 3))       # 000:128; 002:146; 003:235-240
FIRST_FOUR = (0, 1, 2, 3)                  # 000:130; 002:148; 003:245-249
ZERO_SPLITS = ((0, 1), (0, 2), (0, 3))     # R: docs/rulings.md#roulette-zero-splits


def row(r: int) -> tuple[int, ...]:
    return (3 * r - 2, 3 * r - 1, 3 * r)


def column(c: int) -> frozenset[int]:
    return frozenset(n for n in range(1, 37) if n % 3 == c % 3)


def dozen(d: int) -> frozenset[int]:
    return frozenset(range(12 * d - 11, 12 * d + 1))


def colour(n: int) -> str:
    return "red" if n in RED else "black" if n in BLACK else "green"


def inside_spots(kind: str, *, zero_trios: bool, first_four: bool, zero_splits: bool) -> list[tuple[int, ...]]:
    """Every legal target of an inside bet, as sorted tuples of the numbers it covers."""
    if kind == "straight":
        return [(n,) for n in NUMBERS]
    if kind == "split":
        spots = [(n, n + 1) for n in range(1, 37) if n % 3 in (1, 2)]
        spots += [(n, n + 3) for n in range(1, 34)]
        return spots + (list(ZERO_SPLITS) if zero_splits else [])
    if kind == "street":
        return [row(r) for r in range(1, 13)] + (list(ZERO_TRIOS) if zero_trios else [])
    if kind == "corner":
        spots = [(n, n + 1, n + 3, n + 4) for n in range(1, 33) if n % 3 in (1, 2)]
        return spots + ([FIRST_FOUR] if first_four else [])
    if kind == "six-line":
        return [row(r) + row(r + 1) for r in range(1, 12)]
    raise KeyError(kind)


def covered(kind: str, on: Iterable[int] | None) -> frozenset[int]:
    """The numbers a bet covers (the spot already validated)."""
    if kind in SIMPLE_CHANCES:
        return SIMPLE_CHANCES[kind]
    on = tuple(on or ())
    if kind == "column":
        return column(on[0])
    if kind == "dozen":
        return dozen(on[0])
    if kind == "two-columns":
        return column(on[0]) | column(on[1])
    if kind == "two-dozens":
        return dozen(on[0]) | dozen(on[1])
    return frozenset(on)


def neighbours(n: int, each_side: int = 2) -> tuple[int, ...]:
    """n and its neighbours on the wheel, for announced bets (000:244)."""
    i = WHEEL_ORDER.index(n)
    return tuple(WHEEL_ORDER[(i + k) % 37] for k in range(-each_side, each_side + 1))
