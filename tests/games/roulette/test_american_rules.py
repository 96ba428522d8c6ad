"""Single-zero American roulette: maxima per jurisdiction, colour chips, announced bets, payment order, edges, diff.

Golden cases the round format expresses are in src/tapete/lab/golden/roulette-american.jsonl; these are the rest.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tapete.analysis.edges import edges
from tapete.catalog import get_game
from tapete.cli import app
from tapete.conformance.document import settle_document
from tapete.core.errors import TapeteError
from tapete.engine.events import Bet, Limits, Outcome
from tapete.games.roulette import layout
from tapete.games.roulette.american import components
from tapete.games.roulette.rules import ANNOUNCED, INSIDE, SECTORS

GAME = get_game("roulette-american")
FRENCH = get_game("roulette-french")
ALL = ["ES", "ES-IB", "ES-GA", "ES-AN"]


def maxima(game, jurisdiction: str, table: dict) -> dict[str, int]:
    state = game.open(jurisdiction, table)
    return {a.kind: a.maximum for a in game.legal_actions(state) if a.verb == "bet"}


def settle(jurisdiction: str, events: list, table: dict | None = None) -> dict:
    return settle_document({"game": "roulette-american", "jurisdiction": jurisdiction,
                            "table": table or {"minimum": 100}, "events": events})


def test_AM_09_national_maxima_are_the_fixed_tier_2_set() -> None:
    found = maxima(GAME, "ES", {"minimum": 100})
    assert {k: found[k] for k in ("straight", "split", "street", "corner", "six-line", "column", "dozen",
                                  "two-columns", "two-dozens", "red")} == {
        "straight": 2000, "split": 4000, "street": 6000, "corner": 8000, "six-line": 12000, "column": 24000,
        "dozen": 24000, "two-columns": 48000, "two-dozens": 48000, "red": 36000}
    french = maxima(FRENCH, "ES", {"minimum": 100})
    assert french["straight"] == 3000 and french["red"] == 54000      # 001:119-123 against 001:225-228


def test_AM_09_national_american_table_has_no_tier_choice() -> None:
    with pytest.raises(TapeteError) as err:
        GAME.open("ES", {"minimum": 100, "tier": 3})
    assert err.value.code == "bad-table"
    assert maxima(GAME, "ES", {"minimum": 100, "tier": 2})["straight"] == 2000


@pytest.mark.parametrize("jurisdiction", ["ES-IB", "ES-GA", "ES-AN"])
def test_regional_tiers_as_in_french_roulette(jurisdiction: str) -> None:
    for tier in (1, 2, 3):
        table = {"minimum": 100, "tier": tier}
        american = maxima(GAME, jurisdiction, table)
        assert {k: american[k] for k in maxima(FRENCH, jurisdiction, table)} == maxima(FRENCH, jurisdiction, table)
    assert maxima(GAME, jurisdiction, {"minimum": 100})["straight"] == 3000     # default: the largest, tier 3


def test_simple_chance_minimum_up_to_five_minima_outside_ES() -> None:
    assert GAME.open("ES-IB", {"minimum": 100, "minimum-simple": 500}).limits.minimum_simple == 500
    assert GAME.open("ES-AN", {"minimum": 100, "minimum-simple": 500}).limits.minimum_simple == 500
    for table in ({"minimum": 100, "minimum-simple": 200},):
        with pytest.raises(TapeteError) as err:
            GAME.open("ES", table)
        assert err.value.code == "bad-table"
    with pytest.raises(TapeteError):
        GAME.open("ES-GA", {"minimum": 100, "minimum-simple": 600})


def test_raising_maxima_only_where_the_catalog_allows() -> None:
    assert GAME.open("ES-IB", {"minimum": 100, "maximum-straight": 5000}).limits.maxima["straight"] == 5000
    assert GAME.open("ES-AN", {"minimum": 100, "maximum-straight": 1500}).limits.maxima["straight"] == 1500
    for j in ("ES", "ES-GA"):
        with pytest.raises(TapeteError) as err:
            GAME.open(j, {"minimum": 100, "maximum-straight": 5000})
        assert err.value.code == "bad-table"
    with pytest.raises(TapeteError):            # ES-IB raises only
        GAME.open("ES-IB", {"minimum": 100, "maximum-straight": 1000})


def test_limit_change_during_a_session_as_in_french_roulette() -> None:
    for j in ("ES", "ES-GA"):
        with pytest.raises(TapeteError) as err:
            GAME.step(GAME.open(j, {"minimum": 100}), Limits({"minimum": 200}))
        assert err.value.code == "illegal-action"
    for j in ("ES-IB", "ES-AN"):
        state = GAME.step(GAME.open(j, {"minimum": 100}), Limits({"minimum": 200}))
        for n in (1, 2, 3):
            state = GAME.step(GAME.step(state, Bet(f"b{n}", "p", "straight", 100, (n,))), Outcome("spin", n))
        assert state.limits.minimum == 200


# -- colour chips -----------------------------------------------------------------------------------------
def test_AM_07_colour_chips_default_to_the_minimum() -> None:
    for j in ALL:
        doc = settle(j, [{"bet": {"id": "b1", "player": "p", "kind": "straight", "on": [23], "amount": 200, "chips": 3}},
                         {"spin": 23}], {"minimum": 200})
        assert doc["bets"]["b1"] == {"status": "won", "staked": 600, "returned": 21600}
        wrong = settle(j, [{"bet": {"id": "b1", "player": "p", "kind": "straight", "on": [23], "amount": 500, "chips": 3}}],
                       {"minimum": 200})
        assert wrong["error"]["code"] == "bad-amount"


def test_AM_07_a_fixed_colour_value_is_what_the_chips_are_worth() -> None:
    table = {"minimum": 100, "colour-chips": {"ana": 500}}
    doc = settle("ES-GA", [{"bet": {"id": "b1", "player": "ana", "kind": "red", "amount": 500, "chips": 4}},
                           {"bet": {"id": "b2", "player": "luis", "kind": "red", "amount": 100, "chips": 4}}, {"spin": 1}],
                 table)
    assert doc["bets"]["b1"]["staked"] == 2000 and doc["bets"]["b1"]["returned"] == 4000
    assert doc["bets"]["b2"]["staked"] == 400


@pytest.mark.parametrize(("jurisdiction", "tier", "ok"), [("ES", None, False), ("ES-IB", 3, True), ("ES-IB", 2, False),
                                                           ("ES-GA", 3, True), ("ES-AN", 3, True)])
def test_AM_08_colour_value_up_to_the_straight_up_maximum(jurisdiction: str, tier: int | None, ok: bool) -> None:
    table = {"minimum": 100, "colour-chips": {"p": 2500}} | ({"tier": tier} if tier else {})
    doc = settle(jurisdiction, [], table)
    assert ("error" not in doc) == ok
    if not ok:
        assert doc["error"]["code"] == "over-maximum"


def test_colour_value_at_least_the_minimum_and_in_the_casinos_chips() -> None:
    assert settle("ES", [], {"minimum": 200, "colour-chips": {"p": 100}})["error"]["code"] == "under-minimum"
    assert settle("ES", [], {"minimum": 100, "chip-unit": 50, "colour-chips": {"p": 275}})["error"]["code"] == "bad-amount"
    assert "error" not in settle("ES", [], {"minimum": 100, "chip-unit": 50, "colour-chips": {"p": 250}})


def test_take_colour_chips_returns_a_new_state() -> None:
    state = GAME.open("ES", {"minimum": 100})
    new = GAME.take_colour_chips(state, "you", 500)
    assert GAME.colour_value(new, "you") == 500 and GAME.colour_value(state, "you") == 100
    with pytest.raises(TapeteError):
        GAME.take_colour_chips(state, "you", 2100)


# -- announced bets -----------------------------------------------------------------------------------------
def test_announced_components_are_legal_spots_of_the_balearic_cloth() -> None:
    spots = {k: set(layout.inside_spots(k, zero_trios=True, first_four=True, zero_splits=False)) for k in INSIDE}
    for kind in ANNOUNCED:
        for on in ([(n,) for n in range(37)] if kind == "neighbours" else [None]):
            for part, spot, chips in components(kind, on):
                assert spot in spots[part], (kind, part, spot)
                assert chips in (1, 2)


def test_appendix_a_wheel_order_reproduces_the_balearic_examples() -> None:
    assert sorted(components("neighbours", [0])) == sorted(("straight", (n,), 1) for n in (0, 3, 15, 26, 32))   # 000:244
    assert {s[0] for _, s, _ in components("neighbours", [17])} == {2, 6, 17, 25, 34}                      # 000:262
    covered = {k: {n for _, spot, _ in SECTORS[k] for n in spot} for k in SECTORS}
    order = layout.WHEEL_ORDER
    arc = lambda a, b: {order[(order.index(a) + i) % 37] for i in range((order.index(b) - order.index(a)) % 37 + 1)}  # noqa: E731
    assert covered["zero-sector"] == arc(22, 25) and len(covered["zero-sector"]) == 17
    assert covered["third"] == arc(27, 33) and len(covered["third"]) == 12
    assert covered["orphans"] == set(range(37)) - covered["zero-sector"] - covered["third"]
    assert len(covered["orphans"]) == 8


def test_announced_results_per_chip_table_of_the_spec() -> None:
    """Spec §2.3's table, every result: R in chips for serie grande, tercio, huérfanos and vecinos."""
    expected = {
        "zero-sector": {**{n: 24 for n in (0, 2, 3)}, **{n: 18 for n in (4, 7, 12, 15, 18, 19, 21, 22, 25, 26, 28, 29, 32, 35)}},
        "third": {n: 18 for n in (5, 8, 10, 11, 13, 16, 23, 24, 27, 30, 33, 36)},
        "orphans": {1: 36, 17: 36, **{n: 18 for n in (6, 9, 14, 20, 31, 34)}},
        "neighbours": {n: 36 for n in (2, 25, 17, 34, 6)},
    }
    for kind, wins in expected.items():
        on = (17,) if kind == "neighbours" else None
        state = GAME.step(GAME.open("ES-IB", {"minimum": 100}), Bet("b", "p", kind, 100, on))
        for n in range(37):
            result = GAME.settle(GAME.step(state, Outcome("spin", n))).bets["b"]
            assert result.returned == 100 * wins.get(n, 0), (kind, n)


def test_announced_chip_value_between_the_minimum_and_the_straight_up_maximum() -> None:
    ok = settle("ES-IB", [{"bet": {"id": "b", "player": "p", "kind": "zero-sector", "amount": 3000}}],
                {"minimum": 100})
    assert "error" not in ok and ok["bets"]["b"]["staked"] == 27000
    assert settle("ES-IB", [{"bet": {"id": "b", "player": "p", "kind": "orphans", "amount": 3100}}])["error"]["code"] == "over-maximum"
    assert settle("ES-IB", [{"bet": {"id": "b", "player": "p", "kind": "orphans", "amount": 50}}])["error"]["code"] == "under-minimum"
    assert settle("ES-IB", [{"bet": {"id": "b", "player": "p", "kind": "third", "amount": 100, "on": [3]}}])["error"]["code"] == "bad-target"
    assert settle("ES-IB", [{"bet": {"id": "b", "player": "p", "kind": "neighbours", "amount": 100, "on": [37]}}])["error"]["code"] == "bad-target"
    assert settle("ES-IB", [{"bet": {"id": "b", "player": "p", "kind": "neighbours", "amount": 100, "on": [3],
                                     "chips": 5}}])["error"]["code"] == "bad-document"


def test_AM_15_balearic_tables_may_close_their_announced_boxes() -> None:
    doc = settle("ES-IB", [{"bet": {"id": "b", "player": "p", "kind": "orphans", "amount": 100}}],
                 {"minimum": 100, "announced-bets": False})
    assert doc["error"]["code"] == "unknown-bet-kind"


def test_AM_15_andalusian_markers_follow_payability() -> None:
    """With the markers enabled, each component's payout must still be payable with the minimum (003:561-562)."""
    table = {"minimum": 200, "announced-bets": True}
    assert "error" not in settle("ES-AN", [{"bet": {"id": "b", "player": "p", "kind": "orphans", "amount": 200}}], table)
    odd = settle("ES-AN", [{"bet": {"id": "b", "player": "p", "kind": "orphans", "amount": 300}}], table)
    assert odd["error"]["code"] == "bad-amount"


# -- payment order ------------------------------------------------------------------------------------------
AM_17 = [("P1", "two-columns", [1, 2], 1000), ("P2", "red", None, 1000), ("P3", "straight", [14], 100),
         ("P4", "dozen", [2], 1000), ("P5", "split", [14, 17], 100)]


def paid_order(game: str, jurisdiction: str, bets: list) -> list[str]:
    events = [{"bet": {"id": p, "player": p, "kind": k, "amount": a, **({"on": on} if on else {})}} for p, k, on, a in bets]
    doc = settle_document({"game": game, "jurisdiction": jurisdiction, "table": {"minimum": 100},
                           "events": [*events, {"spin": 14}]})
    return [line.split()[1] for line in doc["log"] if line.startswith("pays ")]


@pytest.mark.parametrize("jurisdiction", ["ES", "ES-IB", "ES-GA"])
def test_AM_17_american_payment_order(jurisdiction: str) -> None:
    assert paid_order("roulette-american", jurisdiction, AM_17) == ["P1", "P2", "P4", "P5", "P3"]
    assert paid_order("roulette-french", jurisdiction, AM_17) == ["P4", "P1", "P2", "P5", "P3"]


def test_AM_17_andalucia_prescribes_no_order() -> None:
    assert paid_order("roulette-american", "ES-AN", AM_17) == ["P1", "P2", "P3", "P4", "P5"]


def test_AM_17_a_players_winning_bets_are_paid_all_at_once() -> None:
    bets = [("P1", "straight", [14], 100), ("P2", "red", None, 1000), ("P1", "two-columns", [1, 2], 1000)]
    events = [{"bet": {"id": f"b{i}", "player": p, "kind": k, "amount": a, **({"on": on} if on else {})}}
              for i, (p, k, on, a) in enumerate(bets)]
    doc = settle("ES", [*events, {"spin": 14}])
    assert [line.split()[1] for line in doc["log"] if line.startswith("pays ")] == ["b2", "b0", "b1"]


# -- jurisdiction differences in the rules data, edges, diff ---------------------------------------------------------
def test_jurisdiction_differences_in_the_rules_data() -> None:
    es, ib, ga, an = (GAME.rules[j] for j in ALL)
    assert all(r.zero_on_simple == "half-lost" for r in (es, ib, ga, an))
    assert not es.zero_trios and ib.zero_trios and ga.zero_trios and an.zero_trios
    assert (es.announced, ib.announced, ga.announced, an.announced) == ("none", "catalog", "none", "markers")
    assert not es.announced_bets and not ga.announced_bets and set(ib.announced_bets) == set(ANNOUNCED)
    assert an.payable_with_minimum and not (es.payable_with_minimum or ib.payable_with_minimum or ga.payable_with_minimum)
    assert an.payment_order is None and es.payment_order == ib.payment_order == ga.payment_order
    assert list(es.maxima) == [2] and list(ib.maxima) == [1, 2, 3]


@pytest.mark.parametrize("jurisdiction", ALL)
def test_exact_edges(jurisdiction: str) -> None:
    found = {r.kind: r.house_edge for r in edges(GAME, jurisdiction)}
    for kind in ("straight", "split", "street", "corner", "six-line", "column", "dozen", "two-columns", "two-dozens"):
        assert found[kind] == Fraction(1, 37), kind
    for kind in ("red", "black", "even", "odd", "low", "high"):
        assert found[kind] == Fraction(1, 74), kind
    if jurisdiction == "ES-IB":
        assert all(found[k] == Fraction(1, 37) for k in ANNOUNCED)
    else:
        assert not set(found) & set(ANNOUNCED)


def test_short_roulette_edges() -> None:
    found = {r.kind: r.house_edge for r in edges(get_game("roulette-french-short"), "ES-AN")}
    assert found == {k: Fraction(1, 37) for k in INSIDE}


def test_diff_shows_fixed_national_maxima_against_tiers_and_balearic_announced_bets() -> None:
    result = CliRunner().invoke(app, ["diff", "roulette-american", "--json"])
    assert result.exit_code == 0
    rows = {d["rule"]: d for d in json.loads(result.stdout)["differences"]}
    assert rows["maxima"]["ES"]["value"]["2"]["straight"] == 20 and rows["maxima"]["ES"]["source"] == "001:225-228"
    assert rows["maxima"]["ES-IB"]["value"]["1"]["straight"] == 10 and rows["maxima"]["ES-GA"]["value"]["3"]["straight"] == 30
    assert rows["announced_bets"]["ES-IB"]["value"]["zero-sector"].startswith("2 on 0/2/3")
    assert rows["announced_bets"]["ES-IB"]["source"] == "000:242-268"
    assert rows["announced"]["ES-GA"]["value"] == "none" and rows["announced"]["ES-AN"]["value"] == "markers"
    assert "payable_with_minimum" in rows and "payment_order" in rows


def test_games_document_lists_the_new_kinds_and_keys() -> None:
    info = GAME.info()
    kinds = [k["kind"] for k in info["kinds"]]
    assert kinds[-4:] == ["neighbours", "zero-sector", "third", "orphans"] and info["verbs"] == []
    keys = {t["key"] for t in info["table"]}
    assert {"colour-chips", "chip-unit", "announced-bets", "tier", "minimum-simple"} <= keys
    assert info["jurisdictions"] == ALL
