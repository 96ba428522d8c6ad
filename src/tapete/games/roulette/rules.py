"""Roulette rules as data, one instance per jurisdiction, each field with its seed citation."""

from __future__ import annotations

import dataclasses
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


# -- Andalucía's ruleta francesa abreviada (003:441-454) -------------------------------------------------
# The same wheel, staff and operation as the ordinaria, but only the inside bets: "seisena o doble fila
# transversal, fila transversal, cuadro o jugar a cuatro primeros, caballo o pareja y a pleno" (003:452-454);
# the cloth has no places for simple chances, dozens or columns (003:448-450).
SHORT_RULES: dict[str, RouletteRules] = {
    "ES-AN": dataclasses.replace(
        FRENCH_RULES["ES-AN"], kinds=INSIDE,
        sources={
            **FRENCH_RULES["ES-AN"].sources,
            "kinds": "003:448-454",
            "zero_trios": "003:453; 003:235-240; R: docs/rulings.md#roulette-short-bets",
            "first_four": "003:453-454",
            "payouts": "003:443-446; 003:221-264",
        },
    ),
}


# -- Single-zero American roulette (001:167-228; 000:200-284; 002:198-236; 003:456-568) ---------------------
# Everything not stated is as French roulette in the same jurisdiction (001:169; 000:202; 002:202; 003:459-464).

# The payment order of 001:193 (000:236; 002:236): two columns first, the pleno last.
AMERICAN_ORDER = ("two-columns", "column", "high", "odd", "black", "red", "even", "low", "two-dozens", "dozen",
                  "six-line", "street", "corner", "split", "straight")

# ES-IB's announced bets (000:242-268): (kind, spot, chips) per component, each settled as an ordinary bet.
AnnouncedComponent = tuple[str, tuple[int, ...], int]
SECTORS: Mapping[str, tuple[AnnouncedComponent, ...]] = {
    # sector del cero o serie grande, 9 chips (000:248-250)
    "zero-sector": (("street", (0, 2, 3), 2), ("split", (4, 7), 1), ("split", (12, 15), 1), ("split", (18, 21), 1),
                    ("split", (19, 22), 1), ("corner", (25, 26, 28, 29), 2), ("split", (32, 35), 1)),
    # tercio o serie pequeña, 6 chips (000:252-254)
    "third": (("split", (5, 8), 1), ("split", (10, 11), 1), ("split", (13, 16), 1), ("split", (23, 24), 1),
              ("split", (27, 30), 1), ("split", (33, 36), 1)),
    # huérfanos, 5 chips (000:256-258)
    "orphans": (("straight", (1,), 1), ("split", (6, 9), 1), ("split", (14, 17), 1), ("split", (17, 20), 1),
                ("split", (31, 34), 1)),
}
# vecinos: the number and two neighbours each side on the wheel, one straight-up chip each (000:244, 000:262)
ANNOUNCED_CHIPS: Mapping[str, int] = {"neighbours": 5, **{k: sum(c for _, _, c in v) for k, v in SECTORS.items()}}
ANNOUNCED = tuple(ANNOUNCED_CHIPS)


def _composition(kind: str) -> str:
    if kind == "neighbours":
        return "x and 2 neighbours each side on the wheel: 5 straight-ups"
    return ", ".join(f"{c} on {'/'.join(map(str, spot))}" for _, spot, c in SECTORS[kind])


ANNOUNCED_COMPOSITION: Mapping[str, str] = {k: _composition(k) for k in ANNOUNCED}


@dataclass(frozen=True)
class AmericanRules(RouletteRules):
    colour_chips: str                    # the value a player may give his colour chips, and the default
    announced: Literal["none", "catalog", "markers"]   # catalog: defined (ES-IB); markers: casino option (ES-AN)
    announced_bets: Mapping[str, str]    # the announced bets that can be played, with their composition
    payable_with_minimum: bool           # ES-AN: a bet's winnings must be payable in units of the minimum
    pay_player_at_once: bool             # a player's winning bets are all paid when the order reaches him


_COLOUR_CHIPS = "from the minimum to the straight-up maximum; unfixed: the minimum"


def _american(jurisdiction: str, **overrides: object) -> AmericanRules:
    french = FRENCH_RULES[jurisdiction]
    fields: dict[str, object] = {f.name: getattr(french, f.name) for f in dataclasses.fields(RouletteRules)}
    fields.update(
        zero_on_simple="half-lost", last_spin_refund=False, payment_order=AMERICAN_ORDER, colour_chips=_COLOUR_CHIPS,
        announced="none", announced_bets={}, payable_with_minimum=False, pay_player_at_once=True,
    )
    fields.update(overrides)
    return AmericanRules(**fields)  # type: ignore[arg-type]


AMERICAN_RULES: dict[str, AmericanRules] = {
    "ES": _american(
        "ES", maxima={2: tiers_from(FRENCH_TIER_3)[2]},
        sources={
            "kinds": "001:169; 001:77-103", "payouts": "001:169; 001:81-103", "zero_trios": "001:169; 001:77; 001:85",
            "first_four": "001:169; 001:77; 001:87", "zero_on_simple": "001:197",
            "prison_lock_basis": "001:197", "last_spin_refund": "001:197",
            "maxima": "001:225-228", "simple_minimum_multiple": "001:199-201",
            "maxima_override": "001:199; 001:225-228", "limit_change": "001:169; 001:145-147",
            "void_causes": "001:169; 001:163; 001:1084", "payment_order": "001:193",
            "colour_chips": "001:177; 001:201", "announced": "001:195-197", "announced_bets": "001:195-197",
            "payable_with_minimum": "001:199-201", "pay_player_at_once": "001:193",
        },
    ),
    "ES-IB": _american(
        "ES-IB", announced="catalog", announced_bets=ANNOUNCED_COMPOSITION,
        sources={
            "kinds": "000:202; 000:120-148", "payouts": "000:202; 000:124-148", "zero_trios": "000:202; 000:128",
            "first_four": "000:202; 000:130", "zero_on_simple": "000:240",
            "prison_lock_basis": "000:240", "last_spin_refund": "000:240",
            "maxima": "000:276-282", "simple_minimum_multiple": "000:274", "maxima_override": "000:284",
            "limit_change": "000:202; 000:174-176", "void_causes": "000:202; 000:196; 000:1177",
            "payment_order": "000:236", "colour_chips": "000:214; 000:272",
            "announced": "000:210-212; 000:242-268", "announced_bets": "000:242-268",
            "payable_with_minimum": "000:272-284", "pay_player_at_once": "000:236",
        },
    ),
    "ES-GA": _american(
        "ES-GA",
        sources={
            "kinds": "002:202; 002:126-160", "payouts": "002:202; 002:130-160",
            "zero_trios": "002:202; 002:146; R: docs/rulings.md#roulette-galicia-single-zero",
            "first_four": "002:202; 002:148; R: docs/rulings.md#roulette-galicia-first-four",
            "zero_on_simple": "002:228", "prison_lock_basis": "002:228", "last_spin_refund": "002:228",
            "maxima": "002:234", "simple_minimum_multiple": "002:232", "maxima_override": "002:230-234",
            "limit_change": "002:202; 002:174-176", "void_causes": "002:202; 002:194; 002:828",
            "payment_order": "002:236", "colour_chips": "002:210; 002:230",
            "announced": "002:228", "announced_bets": "002:228",
            "payable_with_minimum": "002:230-234", "pay_player_at_once": "002:236",
        },
    ),
    "ES-AN": _american(
        "ES-AN", announced="markers", announced_bets=ANNOUNCED_COMPOSITION, payable_with_minimum=True,
        payment_order=None, pay_player_at_once=False,
        sources={
            "kinds": "003:531-533; 003:213-302", "payouts": "003:531-533; 003:221-302",
            "zero_trios": "003:531-533; 003:235-240", "first_four": "003:531-533; 003:242-249",
            "zero_on_simple": "003:543-545", "prison_lock_basis": "003:543-545",
            "last_spin_refund": "003:543-545", "maxima": "003:548-552; 003:328-352",
            "simple_minimum_multiple": "003:548-552; 003:340-344", "maxima_override": "003:548-552; 003:328-336",
            "limit_change": "003:564-568; 003:355-367", "void_causes": "003:564-568; 003:429-436; 003:2901-2903",
            "payment_order": "003:564-568; 003:422-427", "colour_chips": "003:479-486; 003:554-559",
            "announced": "003:498-502; R: docs/rulings.md#roulette-andalucia-announced-markers",
            "announced_bets": "003:498-502; 000:242-268; R: docs/rulings.md#roulette-andalucia-announced-markers",
            "payable_with_minimum": "003:561-562; R: docs/rulings.md#roulette-american-payable-minimum",
            "pay_player_at_once": "003:564-568",
        },
    ),
}
