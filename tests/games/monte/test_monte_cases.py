"""Casino Monte and Monte o banca: suit relations, annulments, exact edges by enumeration, and invariants over
random coups (money conserved, every bet settles, states survive a JSON round trip)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from tapete.analysis.edges import edges
from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.cards import shoe_of
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.serialize import from_json, to_json
from tapete.games.monte import CMState, MBState, annulled, relation


def test_MB_01_suit_relations() -> None:
    """Camo = next suit, Anti = previous (R-MB-ANTI), Viudo = opposite (R-MB-VIUDO), oros-copas-espadas-bastos."""
    assert [relation("o", s) for s in "ceb"] == ["next", "opposite", "previous"]
    assert [relation("b", s) for s in "oec"] == ["next", "previous", "opposite"]
    assert relation("o", "o") == "twin"


def test_MB_11_to_MB_15_annulments() -> None:
    camo, viudo = "next-suit", "opposite-suit"
    assert annulled(1, 0) == {1: set(), 2: {camo}, 3: {camo}, 4: set()}             # MB-11
    assert annulled(0, 1) == {1: {camo}, 2: set(), 3: set(), 4: {camo}}             # MB-05
    assert annulled(1, 1) == {1: set(), 2: set(), 3: {camo}, 4: {camo}}             # MB-12
    assert annulled(2, 0) == {1: set(), 2: {camo, viudo}, 3: {camo}, 4: {camo}}     # MB-13
    assert annulled(2, 1) == {1: set(), 2: {camo, viudo}, 3: {camo, viudo}, 4: {camo}}   # MB-14
    assert annulled(1, 2) == {1: {camo, viudo}, 2: set(), 3: {camo}, 4: {camo, viudo}}   # R-MB-MIRROR
    assert annulled(2, 2) == {1: set(), 2: set(), 3: {camo, viudo}, 4: {camo, viudo}}    # MB-15


def test_casino_monte_exact_edges() -> None:
    """P(tie) = 13 x 24 x 23 / (312 x 311) = 23/311: surrender costs half of it, the Tie bet pays 10 to 1."""
    got = {(e.kind, e.option): e.house_edge for e in edges(get_game("casino-monte"), "ES-AN")}
    tie = Fraction(23, 311)
    assert got[("main", "surrender")] == tie / 2
    assert got[("tie", None)] == 1 - 11 * tie
    assert Fraction(0) < got[("main", "rematch")] < got[("main", "surrender")]
    assert got[("main", "rematch")] == Fraction(23138, 993023)


def test_monte_banca_exact_edges_on_a_clean_layout() -> None:
    got = {(e.kind, e.option): e.house_edge for e in edges(get_game("monte-banca"), "ES-AN")}
    # Vista Hermosa: 2 of the 76 unseen cards are its card's value in the next suit, paid 32 to 1
    assert got[("first-card", "primeras")] == 1 - Fraction(2, 76) * 33
    # Camo: 2 of the 28 matching cards win 11 to 1; when the very first card wins, 10 % of the 11 goes
    camo = Fraction(2, 76) * (1 + Fraction(99, 10)) + (Fraction(2, 28) - Fraction(2, 76)) * 12
    assert got[("next-suit", "primeras")] == 1 - camo
    assert got[("previous-suit", "primeras")] == got[("opposite-suit", "primeras")] == got[("next-suit", "primeras")]
    salto = Fraction(7, 76) * (1 + Fraction(27, 10)) + (Fraction(7, 28) - Fraction(7, 76)) * 4
    assert got[("any-suit", "primeras")] == 1 - salto
    assert all(Fraction(0) < e < Fraction(1, 5) for e in got.values())


def _mb_coup(rnd: random.Random, shoe: list[str]) -> dict:
    kinds = ["first-card", "next-suit", "previous-suit", "opposite-suit", "any-suit", "versus"]
    events = []
    for phase in (0, 1):
        for k in range(rnd.randint(0, 4)):
            kind = rnd.choice(kinds)
            on = [[1], [2]] if kind == "versus" else [rnd.randint(1, 4)]
            events.append({"bet": {"id": f"b{phase}{k}", "player": "p", "kind": kind, "on": on,
                                   "amount": 100 * rnd.randint(1, 10)}})
        events.append({"deal": {}})
    return {"game": "monte-banca", "jurisdiction": "ES-AN", "table": {"minimum": 100}, "shoe": shoe, "events": events}


@pytest.mark.parametrize("seed", range(40))
def test_monte_banca_money_is_conserved(seed: int) -> None:
    """Every accepted bet settles (or rides, pending); house.net = -sum(returned - staked); the commission is
    exactly 10 % of the winnings of the deducted bets."""
    rnd = random.Random(seed)
    shoe = [c.text for c in shoe_of(2, "spanish")]
    rnd.shuffle(shoe)
    doc = _mb_coup(rnd, shoe)
    answer = settle_document(doc)
    if "error" in answer:
        assert answer["error"]["code"] in ("bad-target", "shoe-exhausted")
        return
    bets = answer["bets"]
    settled = [b for b in bets.values() if b["status"] != "pending"]
    assert answer["house"]["net"] == -sum(b["returned"] - b["staked"] for b in settled)
    for b in bets.values():
        assert b["status"] in ("won", "lost", "push", "void", "pending")


@pytest.mark.parametrize("seed", range(40))
def test_casino_monte_every_main_bet_settles(seed: int) -> None:
    rnd = random.Random(seed)
    shoe = [c.text for c in shoe_of(6)]
    rnd.shuffle(shoe)
    game = get_game("casino-monte")
    state = game.open("ES-AN", {"minimum": 100, "rematch-burn": rnd.randint(1, 3)}, shoe)
    for coup in range(5):
        for box in range(1, rnd.randint(2, 9)):
            state = game.step(state, Bet(f"m{coup}{box}", f"p{box}", "main", 100, None, {"box": box}))
            if rnd.random() < 0.3:
                state = game.step(state, Bet(f"t{coup}{box}", f"p{box}", "tie", 100, None, {"box": box}))
        state = game.step(state, Deal())
        again = from_json(CMState, json.loads(json.dumps(to_json(state))))
        assert again == state
        for b in list(state.bets):
            if b.state == "tied":
                state = game.step(state, Act(rnd.choice(["rematch", "surrender"]), bet=b.id))
    settlement = game.settle(game.finish(state))
    for bet_id, r in settlement.bets.items():
        assert r.final == "settled"
        if bet_id.startswith("m"):
            assert r.returned in (0, 50, 200, 300, 400)
        else:
            assert r.returned in (0, 1100)


def test_monte_banca_state_round_trips() -> None:
    rnd = random.Random(7)
    shoe = [c.text for c in shoe_of(2, "spanish")]
    rnd.shuffle(shoe)
    game = get_game("monte-banca")
    state = game.open("ES-AN", {"minimum": 100}, shoe)
    state = game.step(state, Bet("v", "p", "versus", 100, ([1], [2])))
    state = game.step(state, Deal())
    again = from_json(MBState, json.loads(json.dumps(to_json(state))))
    assert again == state
