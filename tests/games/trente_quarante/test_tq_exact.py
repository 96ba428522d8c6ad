"""Trente et quarante's exact analysis: the dynamic programme against exhaustive rational enumeration on small
shoes and against a seeded simulation of the full shoe; every chance's edge under each option."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
from typer.testing import CliRunner

from tapete.analysis import trente_quarante as tq
from tapete.cli import app

runner = CliRunner()


def test_dp_equals_rational_enumeration_on_small_shoes() -> None:
    for shoe, stop in (({1: 2, 2: 2, 3: 2, 10: 2}, 6), ({1: 3, 2: 1, 5: 2, 10: 3}, 9), ({2: 3, 3: 3, 4: 2, 7: 1}, 8)):
        counts = np.zeros(11, dtype=np.int64)
        for v, k in shoe.items():
            counts[v] = k
        joint = tq._joint(counts, stop)
        exact = tq.exact_rational(shoe, stop)
        assert sum(exact.values()) == 1
        for (b, r), p in exact.items():
            assert abs(joint[b, r] - float(p)) < 1e-14


def test_six_deck_outcomes() -> None:
    o = tq.outcomes()
    assert abs(o.black + o.red + o.tie_31 + o.tie_other - 1) < 1e-11
    assert abs(o.black - o.red) < 1e-13                 # the rows are exchangeable
    assert round(o.tie_31, 6) == 0.021891 and round(o.tie_other, 6) == 0.087708
    assert abs(o.joint - o.joint.T).max() < 1e-13


def test_simulation_agrees_with_the_dp() -> None:
    n = 600_000
    freq = tq.simulate(n, seed=31)
    o = tq.outcomes()
    for key, p in (("black", o.black), ("tie_31", o.tie_31), ("tie_other", o.tie_other)):
        assert abs(freq[key] - p) < 4 * math.sqrt(p * (1 - p) / n), key


def test_edges_per_option() -> None:
    doc = json.loads(runner.invoke(app, ["edge", "trente-quarante", "-j", "ES", "--json"]).stdout)
    lines = {(b["kind"], b["option"]): b for b in doc["bets"]}
    assert set(lines) == {(k, o) for k in ("black", "red", "color", "inverse") for o in ("half", "prison", "insured")}
    for kind in ("black", "red", "color", "inverse"):
        assert lines[kind, "insured"]["house_edge"] == "1/100"
        assert abs(lines[kind, "half"]["house_edge_percent"] - 1.0946) < 1e-4       # half the 31-31 chance
        assert lines[kind, "prison"]["house_edge_percent"] > lines[kind, "half"]["house_edge_percent"]
        assert lines[kind, "insured"]["method"] == "exact"          # float64 programme: labelled, not called exact
        assert lines[kind, "half"]["method"] == lines[kind, "prison"]["method"] == "enumerated-float"
        assert lines[kind, "half"]["error_bound"] <= 1e-9
    e = tq.edges_of(tq.outcomes())
    assert abs(e["half"] - tq.outcomes().tie_31 / 2) < 1e-12
    assert tq.exact_edges(tq.tq_rules("ES-AN"))[2].house_edge == Fraction(1, 100)
