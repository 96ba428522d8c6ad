"""Exact house edges of every craps bet, from the engine's own settlement by the generic solver, and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from tapete.analysis.edges import edges
from tapete.analysis.exact import ExactSolver
from tapete.catalog import get_game
from tapete.cli import app
from tapete.engine.events import Bet

GAME = get_game("craps")
runner = CliRunner()

# Per unit initially staked. Textbook values, except the don'ts: their 12 is no decision under the catalogs
# (docs/rulings.md#craps-bar-12), so 3/220 only where the bet is taken down after the 12 (option 'remove').
EXPECTED = {
    ("pass", None, None): F(7, 495), ("come", None, None): F(7, 495),
    ("dont-pass", None, None): F(27, 1925), ("dont-come", None, None): F(27, 1925),
    ("dont-pass", None, "remove"): F(3, 220), ("dont-come", None, "remove"): F(3, 220),
    ("field", None, None): F(1, 18), ("big-6", None, None): F(1, 11), ("big-8", None, None): F(1, 11),
    ("under-7", None, None): F(1, 6), ("over-7", None, None): F(1, 6),
    ("hardway", (4,), None): F(1, 9), ("hardway", (10,), None): F(1, 9),
    ("hardway", (6,), None): F(1, 11), ("hardway", (8,), None): F(1, 11),
    ("any-seven", None, None): F(1, 6), ("eleven", None, None): F(1, 9), ("any-craps", None, None): F(1, 9),
    ("craps-2", None, None): F(5, 36), ("craps-12", None, None): F(5, 36), ("craps-3", None, None): F(1, 9),
    ("horn", None, None): F(1, 6),
    **{("place", (n,), None): e for n, e in ((4, F(1, 15)), (10, F(1, 15)), (5, F(1, 25)), (9, F(1, 25)),
                                              (6, F(1, 66)), (8, F(1, 66)))},
    **{("place-to-lose", (n,), None): e for n, e in ((4, F(1, 33)), (10, F(1, 33)), (5, F(1, 40)), (9, F(1, 40)),
                                                      (6, F(1, 55)), (8, F(1, 55)))},
    **{("odds", (side, n), None): F(0) for side in ("pass", "dont-pass", "come", "dont-come")
       for n in (4, 5, 6, 8, 9, 10)},
    # a line bet with the maximum odds behind it: per unit of the line bet, true odds add no edge (issue 27)
    ("pass", None, "max-odds"): F(7, 495), ("come", None, "max-odds"): F(7, 495),
    ("dont-pass", None, "max-odds"): F(27, 1925), ("dont-come", None, "max-odds"): F(27, 1925),
}


@pytest.mark.parametrize("jurisdiction", ["ES", "ES-IB", "ES-GA", "ES-AN"])
def test_every_bet_and_every_number_has_its_exact_edge(jurisdiction: str) -> None:
    results = edges(GAME, jurisdiction)
    got = {(r.kind, r.on, r.option): r.house_edge for r in results}
    assert all(r.method == "exact" for r in results)
    assert got == EXPECTED


def test_the_point_cycle_closes_on_a_handful_of_states() -> None:
    """Non-deciding rolls return to the same key: the chain is tiny and solved exactly, not truncated."""
    state = GAME.step(GAME.open("ES", {"minimum": 100}), Bet("edge", "p", "pass", 100))
    solver = ExactSolver(GAME)
    returned, staked = solver.solve(state)
    assert len(solver.rows) == 7 and (staked - returned) / 100 == F(7, 495)


def test_cli_edge_json_prints_an_exact_fraction_for_every_kind_and_number() -> None:
    result = runner.invoke(app, ["edge", "craps", "-j", "ES", "--json"])
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert doc["game"] == "craps" and doc["jurisdiction"] == "ES"
    rows = {(b["kind"], tuple(b["on"]) if "on" in b else None, b.get("option")): b for b in doc["bets"]}
    assert set(rows) == set(EXPECTED)
    for key, row in rows.items():
        assert F(row["house_edge"]) == EXPECTED[key] and row["method"] == "exact"
    assert rows[("pass", None, None)]["house_edge"] == "7/495"
    assert {k for k, _, _ in rows} == {k.kind for k in GAME.kinds()}


def test_cli_games_rules_diff_know_craps() -> None:
    games = json.loads(runner.invoke(app, ["games", "--json"]).stdout)
    craps = next(g for g in games["games"] if g["id"] == "craps")
    assert craps["jurisdictions"] == ["ES", "ES-IB", "ES-GA", "ES-AN"] and craps["verbs"] == ["remove"]
    assert {t["key"] for t in craps["table"]} >= {"minimum", "maximum", "maximum-multiple"}
    rules = json.loads(runner.invoke(app, ["rules", "craps", "-j", "ES-IB", "--json"]).stdout)
    assert any(r["rule"] == "far_wall_required" and r["value"] is False for r in rules["rules"])
    diff = json.loads(runner.invoke(app, ["diff", "craps", "--json"]).stdout)
    assert {d["rule"] for d in diff["differences"]} >= {"simple_maximum", "far_wall_required", "croupiers"}
