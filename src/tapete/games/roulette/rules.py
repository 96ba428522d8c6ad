"""Roulette rules as data, one instance per jurisdiction, each field with its seed citation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tapete.engine.rules import Rules

INSIDE = ("straight", "split", "street", "corner", "six-line")
OUTSIDE = ("column", "dozen", "two-columns", "two-dozens")
SIMPLE = ("red", "black", "even", "odd", "low", "high")
ALL_KINDS = INSIDE + OUTSIDE + SIMPLE

# "X to 1", the stake kept (001:81-103; 000:124-148; 002:142-160; 003:221-302)
PAYOUTS: Mapping[str, Fraction] = {
    "straight": Fraction(35), "split": Fraction(17), "street": Fraction(11), "corner": Fraction(8),
    "six-line": Fraction(5), "column": Fraction(2), "dozen": Fraction(2),
    "two-columns": Fraction(1, 2), "two-dozens": Fraction(1, 2),
    **{k: Fraction(1) for k in SIMPLE},
}

# Maxima in multiples of the minimum, per tier. The national text's fixed values equal tier 3 (001:119-123).
FRENCH_TIER_3: Mapping[str, int] = {
    "straight": 30, "split": 60, "street": 90, "corner": 120, "six-line": 180,
    "column": 360, "dozen": 360, "two-columns": 720, "two-dozens": 720, "simple": 540,
}


def tiers_from(top: Mapping[str, int], count: int = 3) -> dict[int, dict[str, int]]:
    """Tiers 1..3 are thirds of tier 3 (000:164-168; 002:168-170; 003:338-352)."""
    return {t: {k: v * t // 3 for k, v in top.items()} for t in range(1, count + 1)}


def max_group(kind: str) -> str:
    """Simple chances share one maximum; every other kind has its own."""
    return "simple" if kind in SIMPLE else kind


@dataclass(frozen=True)
class RouletteRules(Rules):
    kinds: tuple[str, ...]
    payouts: Mapping[str, Fraction]
    zero_trios: bool                               # transversales del 0: 0-1-2, 0-2-3
    first_four: bool                               # 0-1-2-3 at 8 to 1
    zero_on_simple: Literal["choice", "half-lost"]  # French: prison or half back; American: half lost
    prison_lock_basis: Literal["value", "held"]    # which amount the below-minimum lock compares
    last_spin_refund: bool                         # zero on the session's last spin forces the refund
    maxima: Mapping[int, Mapping[str, int]]        # tier -> kind (or 'simple') -> multiple of minimum
    simple_minimum_multiple: int                   # the simple-chance minimum may be set up to k x minimum
    maxima_override: Literal["none", "raise", "authorisation"]
    limit_change: Literal["never", "after-3-spins"]
    void_causes: tuple[str, ...]                   # what the text itself voids ('inspector' is the catch-all)
    payment_order: tuple[str, ...] | None          # the order the croupiers pay in, where prescribed


_FRENCH_ORDER = ("column", "dozen", "two-columns", "two-dozens", "red", "black", "even", "odd", "high", "low",
                 "street", "six-line", "corner", "split", "straight")


def _french(jurisdiction: str, **overrides: object) -> RouletteRules:
    fields: dict[str, object] = dict(
        kinds=ALL_KINDS, payouts=PAYOUTS, zero_trios=True, first_four=True, zero_on_simple="choice",
        prison_lock_basis="value", last_spin_refund=True, maxima=tiers_from(FRENCH_TIER_3),
        simple_minimum_multiple=5, maxima_override="none", limit_change="never",
        void_causes=("object-in-wheel", "ball-out", "defective-launch", "inspector"),
        payment_order=_FRENCH_ORDER,
    )
    fields.update(overrides)
    return RouletteRules(jurisdiction=jurisdiction, **fields)  # type: ignore[arg-type]


FRENCH_RULES: dict[str, RouletteRules] = {
    "ES": _french(
        "ES", zero_trios=False, first_four=False, maxima={3: FRENCH_TIER_3}, simple_minimum_multiple=1,
        sources={
            "kinds": "001:77-103", "payouts": "001:81-103", "zero_trios": "001:77; 001:85",
            "first_four": "001:77; 001:87", "zero_on_simple": "001:105",
            "prison_lock_basis": "001:107", "last_spin_refund": "001:109", "maxima": "001:117-123",
            "simple_minimum_multiple": "001:115", "maxima_override": "001:115-123",
            "limit_change": "001:145-147", "void_causes": "001:163; 001:1084",
            "payment_order": "001:161",
        },
    ),
    "ES-IB": _french(
        "ES-IB", maxima_override="raise", limit_change="after-3-spins",
        sources={
            "kinds": "000:120-148", "payouts": "000:124-148", "zero_trios": "000:128", "first_four": "000:130",
            "zero_on_simple": "000:150", "prison_lock_basis": "000:152", "last_spin_refund": "000:154",
            "maxima": "000:162-168", "simple_minimum_multiple": "000:160", "maxima_override": "000:170",
            "limit_change": "000:174-176", "void_causes": "000:196; 000:1177", "payment_order": "000:194",
        },
    ),
    "ES-GA": _french(
        "ES-GA",
        sources={
            "kinds": "002:126-160", "payouts": "002:130-160", "zero_trios": "002:146",
            "first_four": "002:148; R: docs/rulings.md#roulette-galicia-first-four",
            "zero_on_simple": "002:134", "prison_lock_basis": "002:136", "last_spin_refund": "002:138",
            "maxima": "002:168-170", "simple_minimum_multiple": "002:166", "maxima_override": "002:166-170",
            "limit_change": "002:174-176", "void_causes": "002:194; 002:828", "payment_order": "002:192",
        },
    ),
    "ES-AN": _french(
        "ES-AN", prison_lock_basis="held", maxima_override="authorisation", limit_change="after-3-spins",
        void_causes=("object-in-wheel", "ball-out", "inspector"), payment_order=None,
        sources={
            "kinds": "003:213-302", "payouts": "003:221-302", "zero_trios": "003:235-240",
            "first_four": "003:242-249", "zero_on_simple": "003:304-311", "prison_lock_basis": "003:312-320",
            "last_spin_refund": "003:320-324; R: docs/rulings.md#roulette-last-spin-andalucia",
            "maxima": "003:328-352", "simple_minimum_multiple": "003:340-344",
            "maxima_override": "003:328-336", "limit_change": "003:355-367",
            "void_causes": "003:429-436; 003:2901-2903", "payment_order": "003:422-427",
        },
    ),
}
