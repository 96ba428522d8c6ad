"""The exact and simulated edges: fractions, the methods checked on published industry tables, the simulation
kernels replayed through the engine, and `tapete edge --json`'s labels."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from tapete.analysis import banked_poker as bp
from tapete.cli import app
from tapete.conformance.document import settle_document
from tapete.core.rng import simulation_stream
from tapete.games.poker import evaluator as ev
from tapete.games.poker.pai_gow import _house_way_scalar
from tapete.games.poker.tripoker import FORTUNE_PAYS, strength3

runner = CliRunner()
LET_IT_RIDE = (("pair", 1), ("two-pair", 2), ("three-of-a-kind", 3), ("straight", 5), ("flush", 8), ("full-house", 11),
               ("four-of-a-kind", 50), ("straight-flush", 200), ("royal-flush", 1000))


def test_trijoker_exact_edge() -> None:
    res = bp.trijoker_exact(True)
    assert res["edge"] == Fraction(32653, 216580)                 # 15.0766% per unit of each bet
    # bet 3 always plays: its part equals the plain average over all 2,598,960 five-card hands
    table = bp.five_table()
    cats = bp.category_index(table)
    net = np.array([1, 1, 2, 3, 5, 8, 11, 50, 200, 500])[cats]
    net[cats == 0] = -1
    net[(cats == 1) & (((table >> 16) & 0xF) < 10)] = -1
    assert res["bet3"] == Fraction(int(net.sum()), len(net))


def test_trijoker_method_gives_let_it_ride_published_edge() -> None:
    # the industry's Let It Ride table (pair of tens or better, royal 1,000 to 1): 3.51% of the base bet
    assert abs(float(bp.trijoker_exact(True, LET_IT_RIDE, 9)["edge"]) - 0.0351) < 0.00005


def test_tripoker_exact_edges() -> None:
    res = bp.tripoker_exact()
    assert res["ante"] == Fraction(778809, 20358520)              # 3.8255% per unit of ante
    assert res["fortune"] == Fraction(308, 5525)                  # 5.5747%
    assert res["weakest_call"] == "three-card high card Q-6-4"
    # the Fortuna again, straight from the engine's own ranking of the 22,100 hands
    total = Fraction(0)
    for row in bp.all_combos(3):
        s = strength3([ev.card_text(int(c)) for c in row])
        total += FORTUNE_PAYS.get(ev.category(s), Fraction(-1))
    assert -total / 22100 == res["fortune"]


def test_tripoker_method_gives_three_card_poker_published_edges() -> None:
    # Three Card Poker: ante bonus 1/4/5 -> 3.37% on the ante; Pair Plus 1/4/6/30/40 -> 2.32%
    res = bp.tripoker_exact("sf-3k-st-fl", (("straight", 1), ("three-of-a-kind", 4), ("straight-flush", 5)),
                            (("straight-flush", 40), ("three-of-a-kind", 30), ("straight", 6), ("flush", 4), ("pair", 1)))
    assert abs(float(res["ante"]) - 0.0337) < 0.00005
    assert abs(float(res["fortune"]) - 0.0232) < 0.00005


def test_seguro_and_carousel_are_exact() -> None:
    assert bp.insurance_rtp() == Fraction(3744 * 101 + 624 * 301 + 36 * 1001 + 4 * 2001, 2598960)
    assert bp.five_card_counts() == {"high-card": 1302540, "pair": 1098240, "two-pair": 123552, "three-of-a-kind": 54912,
                                     "straight": 10200, "flush": 5108, "full-house": 3744, "four-of-a-kind": 624,
                                     "straight-flush": 36, "royal-flush": 4}


def _deal(row: np.ndarray, size: int) -> list[str]:
    deck = list(range(size))
    for k, step in enumerate(row):
        j = k + int(step)
        deck[k], deck[j] = deck[j], deck[k]
    return [ev.card_text(c) for c in deck[: len(row)]]


def test_sin_descarte_kernel_settles_as_the_engine() -> None:
    kernel = bp._sd_kernel()
    table = bp.five_table()
    returns = bp.sd_ante_returns()
    u = bp._draws(simulation_stream(5, 0), 400, 10, 52)
    for row in u:
        counts, pcats = np.zeros(14, np.int64), np.zeros(10, np.int64)
        kernel(row[None, :], table, counts, pcats)
        outcome = int(np.argmax(counts))
        cards = _deal(row, 52)
        shoe = [c for r in range(5) for c in (cards[r], cards[5 + r])]
        doc = {"game": "poker-sin-descarte", "jurisdiction": "ES-AN", "table": {"minimum": 100}, "shoe": shoe,
               "events": [{"bet": {"id": "a", "player": "p", "kind": "ante", "box": 1, "amount": 100}},
                          {"act": {"bet": "a", "do": "fold" if outcome == 0 else "call"}}]}
        got = settle_document(doc)["bets"]["a"]
        assert Fraction(100 + got["returned"] - got["staked"], 100) == returns[outcome], (cards, outcome)


def test_pai_gow_kernel_settles_as_the_engine_with_the_house_way() -> None:
    tables = bp.paigow_tables()
    way, sim, _ = bp.paigow_kernels()
    u = bp._draws(simulation_stream(6, 0), 150, 14, 53)
    for row in u:
        counts = np.zeros(3, np.int64)
        sim(row[None, :], tables, counts)
        cards = _deal(row, 53)
        shoe = cards[7:] + cards[:7]            # the croupier (the bank) is dealt first without a roll
        doc = {"game": "pai-gow", "jurisdiction": "ES-AN", "table": {"minimum": 100}, "shoe": shoe,
               "events": [{"bet": {"id": "m", "player": "p", "kind": "main", "box": 1, "amount": 100}}]}
        status = settle_document(doc)["bets"]["m"]["status"]
        assert ("won", "push", "lost")[int(np.argmax(counts))] == status, cards


def test_compiled_house_way_is_the_engines() -> None:
    tables = bp.paigow_tables()
    way, _, _ = bp.paigow_kernels()
    rng = np.random.default_rng(11)
    for k in range(2000):
        c = rng.permutation(53)[:7].astype(np.int64)
        if k % 4 == 0 and 52 not in c:
            c[0] = 52                           # plenty of joker hands
        assert set(way(c, tables)) == set(_house_way_scalar(c, ev.PAI_GOW)), c


@pytest.mark.parametrize(("game", "j", "methods"), [
    ("trijoker", "ES-IB", {"main": "exact"}),
    ("tripoker", "ES-AN", {"ante": "exact", "fortune": "exact", "jackpot": "model"}),   # a meter (issue 27)
    ("poker-sin-descarte", "ES-AN", {"ante": "exact", "insurance": "exact", "jackpot": "model"}),
    ("pai-gow", "ES-AN", {"main": "simulated", "bank": "simulated"}),
])
def test_edge_json_labels_each_method(game: str, j: str, methods: dict[str, str]) -> None:
    out = json.loads(runner.invoke(app, ["edge", game, "-j", j, "--json"]).stdout)
    got = {b["kind"]: b["method"] for b in out["bets"]}
    assert got == methods
    for b in out["bets"]:
        assert b["note"]
        if b["method"] == "simulated":
            assert "99% interval" in b["note"] and "seed" in b["note"]


def test_simulate_uses_the_registered_kernels() -> None:
    from tapete.analysis.simulate import BetSpec, simulate

    res = simulate("pai-gow", "ES-AN", 20000, seed=3, specs=[BetSpec("main", option="house-way")], chunk=20000,
                   with_exact=False)
    assert res.bets[0].rounds == 20000
    res = simulate("poker-sin-descarte", "ES-IB", 20000, seed=3, specs=[BetSpec("ante", option="strategy"),
                   BetSpec("insurance")], chunk=20000, with_exact=False)
    assert [b.rounds for b in res.bets] == [20000, 20000]
