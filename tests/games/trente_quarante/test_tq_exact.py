"""Trente et quarante's exact analysis: the integer recursion against exhaustive rational enumeration on small
shoes, the stored 6-deck law against a recomputation modulo a fresh prime, a seeded simulation of the full
shoe, and every chance's edge under each option, as true fractions."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
from typer.testing import CliRunner

from tapete.analysis import trente_quarante as tq
from tapete.analysis.modular import crt, primes_below, primes_for
from tapete.analysis.trente_quarante_figures import FIGURES
from tapete.cli import app

runner = CliRunner()
SMALL = (({1: 2, 2: 2, 3: 2, 10: 2}, 6), ({1: 3, 2: 1, 5: 2, 10: 3}, 9), ({2: 3, 3: 3, 4: 2, 7: 1}, 8),
         ({1: 2, 2: 2, 3: 1, 4: 1, 9: 1, 10: 3}, 11))


def test_recursion_equals_brute_force_enumeration_on_small_shoes() -> None:
    for shoe, stop in SMALL:
        law = tq.exact_joint(shoe, stop)
        brute = {k: v for k, v in tq.exact_rational(shoe, stop).items() if v}
        assert sum(brute.values()) == 1
        assert {k: law.p(*k) for k in law.numerators} == brute


def test_crt_joins_residues() -> None:
    primes = primes_for(10**40)
    x = 123456789012345678901234567890123456789
    assert crt([x % p for p in primes[:-1]], primes[:-1]) == x
    assert all(p < 2**31 for p in primes)


def test_stored_law_matches_a_fresh_prime() -> None:
    """Every stored numerator, modulo a prime not used to build it, equals the recursion's residue."""
    p = next(primes_below(2**30))
    counts = tq.shoe_composition(FIGURES["decks"])
    residues = tq.joint_residues(counts, FIGURES["stop"], [p])[0]
    assert FIGURES["denominator"] == math.perm(sum(counts.values()), tq.cards_bound(counts, FIGURES["stop"]))
    stored = np.zeros_like(residues)
    for b, r, x in FIGURES["joint"]:
        stored[b, r] = x % p
    assert (stored == residues).all()
    assert sum(x for _, _, x in FIGURES["joint"]) == FIGURES["denominator"]


def test_six_deck_outcomes_are_fractions() -> None:
    o = tq.exact_outcomes()
    assert o.black + o.red + o.tie_31 + o.tie_other == 1
    assert o.black == o.red                                   # the rows are exchangeable, exactly
    assert all(o.law.numerators[b, r] == o.law.numerators[r, b] for b, r in o.law.numerators)
    assert round(float(o.tie_31), 6) == 0.021891 and round(float(o.tie_other), 6) == 0.087708


def test_simulation_agrees_with_the_law() -> None:
    n = 600_000
    freq = tq.simulate(n, seed=31)
    o = tq.outcomes()
    for key, p in (("black", o.black), ("tie_31", o.tie_31), ("tie_other", o.tie_other)):
        assert abs(freq[key] - p) < 4 * math.sqrt(p * (1 - p) / n), key


def test_exact_edges_agree_with_the_float_programme() -> None:
    """The float64 programme this replaced gave 1.0946 % (half) and 1.1079 % (prison)."""
    e = tq.edges_of(tq.exact_outcomes())
    assert abs(float(e["half"]) - 0.010945685243651027) < 1e-9
    assert abs(float(e["prison"]) - 0.011078606366974553) < 1e-9
    assert e["half"] == tq.exact_outcomes().tie_31 / 2


def test_edges_per_option() -> None:
    for j in ("ES", "ES-IB", "ES-GA", "ES-AN"):
        doc = json.loads(runner.invoke(app, ["edge", "trente-quarante", "-j", j, "--json"]).stdout)
        lines = {(b["kind"], b["option"]): b for b in doc["bets"]}
        assert set(lines) == {(k, o) for k in ("black", "red", "color", "inverse") for o in ("half", "prison", "insured")}
        e = tq.edges_of(tq.exact_outcomes())
        for kind in ("black", "red", "color", "inverse"):
            assert lines[kind, "insured"]["house_edge"] == "1/100"
            assert Fraction(lines[kind, "half"]["house_edge"]) == e["half"]
            assert Fraction(lines[kind, "prison"]["house_edge"]) == e["prison"]
            assert lines[kind, "prison"]["house_edge_percent"] > lines[kind, "half"]["house_edge_percent"]
        # a true fraction: its denominator is no power of ten
        den = e["half"].denominator
        while den % 10 == 0:
            den //= 10
        assert den != 1
    assert tq.exact_edges(tq.tq_rules("ES-AN"))[2].house_edge == Fraction(1, 100)
