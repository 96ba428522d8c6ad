"""Dos paños beyond the golden cases: the bank's decision rules, the stop card (DP-16), a caballo, invariants."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal, Void
from tapete.engine.serialize import from_json, to_json
from tapete.games.baccarat.two_tables import ABATED, RULES, STOOD, bank_decision, split_caballo, stop_card_ok

GAME = get_game("baccarat-two-tables")
FULL_SHOE = [r + s for _ in range(6) for r in "A23456789TJQK" for s in "SHDC"]
M = 10000


def test_bank_decision_follows_the_catalog() -> None:
    assert bank_decision(0, 3, 7) == (True, True)                       # baccará draws
    assert bank_decision(5, ABATED, 4) == (True, True)                  # a side abated: O drawn (001:1056)
    assert bank_decision(3, 9, ABATED) == (True, True)
    assert bank_decision(6, ABATED, STOOD) == (False, False)
    assert bank_decision(7, ABATED, ABATED) == (False, False)           # nothing left to play
    assert bank_decision(4, STOOD, 2) == (None, True)                   # free; T-CF agrees: draw by default
    assert bank_decision(4, STOOD, 2, cuadro=True) == (True, True)      # cuadro, same for both: follow it
    assert bank_decision(5, STOOD, 2, cuadro=True) == (None, True)      # split: free; default 0-5 draws
    assert bank_decision(6, 6, 2, cuadro=True) == (None, False)         # split at 6: default stands
    assert bank_decision(5, STOOD, 2, restored="banker") == (True, True)   # his own error: draw on 0-5 (001:1060)
    assert bank_decision(6, 6, 2, restored="banker") == (False, False)
    assert bank_decision(5, STOOD, 2, restored="player") == (None, True)   # a player's error: free
    assert bank_decision(5, 4, 4, cuadro=True) == (None, True)          # an O cell is not "the same" (C.9-7)


def test_DP_16_the_stop_card_per_jurisdiction() -> None:
    assert not stop_card_ok(RULES["ES"], 12) and stop_card_ok(RULES["ES"], 10)
    assert not stop_card_ok(RULES["ES-IB"], 12) and not stop_card_ok(RULES["ES-GA"], 9)
    assert stop_card_ok(RULES["ES-AN"], 12) and stop_card_ok(RULES["ES-AN"], 10) and not stop_card_ok(RULES["ES-AN"], 9)


def test_DP_07_a_caballo_units() -> None:
    assert split_caballo(Fraction(50000), 10000) == (Fraction(30000), Fraction(20000))
    assert split_caballo(Fraction(40000), 10000) == (Fraction(20000), Fraction(20000))
    assert split_caballo(Fraction(25000), 10000) == (Fraction(12500), Fraction(12500))


def test_jurisdictions_differ_only_in_the_stop_card() -> None:
    for rules in RULES.values():
        assert rules.missing_sources() == []
    differing = {name for name, value, _ in RULES["ES"].items() if getattr(RULES["ES-AN"], name) != value}
    assert differing == {"stop_card"}
    assert RULES["ES"].cagnotte_limited == Fraction(2, 100) and RULES["ES"].cagnotte_free == Fraction(1, 80)


def test_the_banco_player_decides_both_sides_freely() -> None:
    state = GAME.open("ES", {"minimum": M}, ["2S", "3H", "4D", "3C", "3S", "2H", "9D", "AC"])
    GAME.apply(state, Bet("K", "banker", "bank", 200000))
    GAME.apply(state, Bet("x", "banco", "player", 200000, (1, 2)))
    GAME.apply(state, Act("banco", bet="x"))
    GAME.apply(state, Act("stand", by="side-1"))      # 2+3 = 5 ... and 3+3 = 6 may draw under the banco
    GAME.apply(state, Act("draw", by="side-2"))
    state = GAME.finish(state)
    assert state.coups[0].sides[1].cards == ["3H", "3S", "9D"]


def play_session(seed: int, cards: list[str], check) -> object:   # noqa: ANN001
    rng = random.Random(seed)
    state = GAME.open("ES", {"minimum": M, "modality": rng.choice(["limited", "free"])}, cards)
    counter = 0

    def step(event) -> bool:   # noqa: ANN001
        nonlocal state
        before = json.dumps(to_json(state))
        try:
            state = GAME.step(state, event)
        except TapeteError as exc:
            assert exc.code in ("illegal-action", "out-of-turn", "over-maximum", "under-minimum", "shoe-exhausted"), exc
            return False
        check(state, before)
        return True

    for _ in range(rng.randint(2, 8)):
        bank = state.bank()
        if bank is None:
            counter += 1
            step(Bet(f"K{counter}", f"banker{counter}", "bank", rng.choice([5 * M, 20 * M, 100 * M])))
            continue
        if bank.holding == 0:
            step(Act("top-up", bet=bank.id, fields={"amount": bank.initial}) if rng.random() < 0.5 else Act("pass", bet=bank.id))
            continue
        for _ in range(rng.randint(1, 5)):
            counter += 1
            on = rng.choice([(1,), (2,), (1, 2)])
            extra = {"seat": rng.randint(1, 12)} if rng.random() < 0.6 else {}
            step(Bet(f"s{counter}", f"p{counter}", "player", rng.choice([M, 3 * M, 5 * M, 40 * M]), on,
                     {**extra, "line": rng.random() < 0.15}))
        if not step(Deal()):
            step(Void("the coup cannot be dealt"))
            continue
        for _ in range(8):
            coup = state.current
            if coup is None or coup.stage == 9:
                break
            act = Act(rng.choice(["draw", "stand", "cuadro"]), by=rng.choice(["side-1", "side-2", "bank"]))
            if rng.random() < 0.1:
                act = Act(rng.choice(["mistaken-call", "forget-abat", "throw-cards"]), by=rng.choice(["side-1", "side-2"]))
            if not step(act):
                break
    return GAME.finish(state)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.integers(0, 311), unique=True, min_size=90, max_size=90))
def test_the_bank_never_pays_more_than_it_holds_and_the_house_keeps_only_the_cagnotte(seed: int,
                                                                                     indices: list[int]) -> None:
    def check(state, before: str) -> None:   # noqa: ANN001
        for bank in state.banks:
            assert bank.holding >= 0
        assert from_json(GAME.state_type(), json.loads(json.dumps(to_json(state)))) == state

    state = play_session(seed, [FULL_SHOE[i] for i in indices], check)
    settlement = GAME.settle(state)
    exact = sum((r.staked - r.returned for r in settlement.bets.values() if r.final != "pending"), Fraction(0))
    assert exact == settlement.commission
    doc = settlement.document()
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in doc["bets"].values())
    for coup in state.coups:          # no hand ever holds more than three cards
        assert all(len(h.cards) <= 3 for h in (*coup.sides, coup.banker))
