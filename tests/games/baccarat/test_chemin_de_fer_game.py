"""Chemin de fer beyond the golden cases: who holds the cards (CF-21, CF-22), banco seguido, defaults, and the
invariants of a bank carried from coup to coup."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Close, Deal, Void
from tapete.engine.serialize import from_json, to_json
from tapete.games.baccarat.chemin_de_fer import RULES

GAME = get_game("chemin-de-fer")
FULL_SHOE = [r + s for _ in range(6) for r in "A23456789TJQK" for s in "SHDC"]
M = 10000


def table(cards: list[str], **keys) -> object:
    return GAME.open("ES", {"minimum": M, **keys}, cards)


def seat(i: int) -> dict:
    return {"seat": i}


def test_CF_21_banco_con_la_mesa_announcer_holds_the_cards_even_standing() -> None:
    state = table(["4S", "TH", "5D", "8C"])
    GAME.apply(state, Bet("K", "banker", "bank", 200000, None, seat(1)))
    GAME.apply(state, Bet("A", "a", "player", 100000, None, {"behind": 3}))
    GAME.apply(state, Act("banco-with-table", bet="A"))
    GAME.apply(state, Bet("B", "b", "player", 60000, None, seat(2)))
    GAME.apply(state, Bet("C", "c", "player", 40000, None, seat(4)))
    GAME.apply(state, Deal())
    assert state.current.holder == "A"


def test_CF_21_con_la_mesa_y_ultimo_completo_takes_the_cards() -> None:
    state = table(["4S", "TH", "5D", "8C"])
    GAME.apply(state, Bet("K", "banker", "bank", 200000, None, seat(1)))
    GAME.apply(state, Bet("A", "a", "player", 100000, None, {"behind": 3}))
    GAME.apply(state, Act("banco-with-table", bet="A"))
    GAME.apply(state, Bet("D", "d", "player", 100000, None, seat(6)))
    GAME.apply(state, Act("last-completes", bet="D"))
    GAME.apply(state, Deal())
    assert state.current.holder == "D"


def test_CF_22_highest_seated_stake_tie_broken_from_the_bankers_right() -> None:
    state = table(["4S", "TH", "5D", "8C"])
    GAME.apply(state, Bet("K", "banker", "bank", 200000, None, seat(1)))
    GAME.apply(state, Bet("s6", "p6", "player", 50000, None, seat(6)))
    GAME.apply(state, Bet("s2", "p2", "player", 50000, None, seat(2)))
    GAME.apply(state, Bet("st", "pst", "player", 80000, None, {"behind": 4}))
    GAME.apply(state, Deal())
    assert state.current.holder == "s2"


def test_CF_06_banco_seguido_has_priority_over_the_rotation() -> None:
    state = table(["4S", "4H", "4D", "5C", "4S", "TH", "5D", "8C"])
    GAME.apply(state, Bet("K", "banker", "bank", 100000, None, seat(5)))
    GAME.apply(state, Bet("s2", "two", "player", 100000, None, seat(2)))
    GAME.apply(state, Act("banco", bet="s2"))
    GAME.apply(state, Deal())
    GAME.apply(state, Bet("s7", "seven", "player", 195000, None, seat(7)))   # seat 7 comes first from seat 5
    assert state.banco_seguido == "two"
    GAME.apply(state, Act("banco", bet="s7"))
    GAME.apply(state, Bet("s2b", "two", "player", 195000, None, seat(2)))
    GAME.apply(state, Act("banco", bet="s2b"))
    GAME.apply(state, Deal())
    assert state.current.holder == "s2b"


def test_the_defaults_are_the_croupiers_advice_and_t_pb() -> None:
    # punto 5 (2+3) stands by default; bank 5 (A+4) against a stand draws (T-PB), 4 -> 9
    state = table(["2S", "AH", "3D", "4C", "4S"])
    GAME.apply(state, Bet("K", "banker", "bank", 100000, None, seat(1)))
    GAME.apply(state, Bet("s", "p", "player", 10000, None, seat(2)))
    state = GAME.finish(state)
    coup = state.coups[0]
    assert coup.punto.cards == ["2S", "3D"] and coup.banker.cards == ["AH", "4C", "4S"]


def test_out_of_turn_and_forced_decisions() -> None:
    def doc(*events):
        state = table(["2S", "AH", "3D", "4C", "5S", "5H"])
        GAME.apply(state, Bet("K", "banker", "bank", 100000, None, seat(1)))
        GAME.apply(state, Bet("s", "p", "player", 10000, None, seat(2)))
        for e in events:
            GAME.apply(state, e)
        return state

    try:
        doc(Act("stand", by="bank"))         # the punto's 5 is due first
    except TapeteError as exc:
        assert exc.code == "out-of-turn"
    else:
        raise AssertionError("expected out-of-turn")
    state = doc(Act("draw", by="player"), Act("cuadro", by="bank"))
    try:
        GAME.apply(state, Act("stand", by="bank"))   # T-CF[5][5] = T: must draw
    except TapeteError as exc:
        assert exc.code == "illegal-action"
    else:
        raise AssertionError("expected illegal-action")
    for event, code in ((Bet("K2", "x", "bank", 100000, None, seat(4)), "illegal-action"),):
        try:
            doc(Close(), event)
        except TapeteError as exc:
            assert exc.code == code


def test_rules_cite_every_field_and_are_the_same_everywhere_but_the_printed_table() -> None:
    for rules in RULES.values():
        assert rules.missing_sources() == []
    differing = {name for name, value, _ in RULES["ES"].items() if getattr(RULES["ES-AN"], name) != value}
    assert differing == {"bank_table_in_catalog"}


# -- invariants over random tables --------------------------------------------------------------------------
def play_session(seed: int, cards: list[str], check) -> object:   # noqa: ANN001
    """Random bankers, stakes, bancos and decisions; `check(state, before, after)` after every event."""
    rng = random.Random(seed)
    state = table(cards, departments=8)
    counter = 0

    def step(event) -> bool:   # noqa: ANN001
        """Apply an event; a refusal the rules foresee leaves the table as it was."""
        nonlocal state
        before = json.dumps(to_json(state))
        try:
            state = GAME.step(state, event)
        except TapeteError as exc:
            assert exc.code in ("illegal-action", "out-of-turn", "over-maximum", "under-minimum", "shoe-exhausted"), exc
            return False
        check(state, before)
        return True

    for _ in range(rng.randint(2, 10)):
        if state.bank() is None:
            counter += 1
            amount = max(rng.choice([M, 5 * M, 20 * M, 100 * M]), GAME.bank_floor(state))
            step(Bet(f"K{counter}", f"banker{counter}", "bank", amount, None, seat(rng.randint(1, 8))))
        bank = state.bank()
        if bank is None:
            continue
        limit = int(GAME.in_play(state, bank))
        for _ in range(rng.randint(1, 4)):
            counter += 1
            amount = rng.choice([M, 2 * M, 3 * M, limit, limit // 2 + 1])
            where = seat(rng.randint(1, 8)) if rng.random() < 0.7 else {"behind": rng.randint(1, 8)}
            placed = step(Bet(f"s{counter}", f"p{counter}", "player", amount, None,
                              {**where, "line": rng.random() < 0.2}))
            if placed and amount == limit and rng.random() < 0.5:
                step(Act("banco", bet=f"s{counter}"))
        if not step(Deal()):
            step(Void("the coup cannot be dealt"))
            if state.stop_card_out:
                break
            continue
        for _ in range(8):
            coup = state.current
            if coup is None or coup.stage == 7:
                break
            options = ["draw", "stand"] + (["cuadro"] if rng.random() < 0.2 else [])
            if not step(Act(rng.choice(options), by=rng.choice(["player", "bank"]))):
                break
        bank = state.bank()
        if bank is not None and bank.coups and rng.random() < 0.2:
            step(Act("pass", bet=bank.id))
    return GAME.finish(state)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.integers(0, 311), unique=True, min_size=60, max_size=60))
def test_a_bank_never_pays_out_more_than_it_holds(seed: int, indices: list[int]) -> None:
    def check(state, before: str) -> None:   # noqa: ANN001
        old = from_json(GAME.state_type(), json.loads(before))
        for bank in state.banks:
            assert bank.holding >= 0 and bank.garage >= 0
            previous = next((b for b in old.banks if b.id == bank.id), None)
            if previous is not None and bank.holding < previous.holding:
                assert previous.holding - bank.holding <= previous.holding
        for coup in state.coups[len(old.coups):]:
            covered = sum((s.covered for s in state.stakes if s.id in coup.stakes), Fraction(0))
            bank_then = next(b for b in old.banks if b.id == coup.bank) if any(b.id == coup.bank for b in old.banks) else None
            if bank_then is not None:
                assert covered <= GAME.in_play(old, bank_then)

    play_session(seed, [FULL_SHOE[i] for i in indices], check)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.integers(0, 311), unique=True, min_size=60, max_size=60))
def test_money_is_conserved_the_house_keeps_only_the_cagnotte(seed: int, indices: list[int]) -> None:
    def check(state, before: str) -> None:   # noqa: ANN001
        again = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
        assert again == state                     # the state survives JSON at every event, mid-coup included

    state = play_session(seed, [FULL_SHOE[i] for i in indices], check)
    settlement = GAME.settle(state)
    exact = sum((r.staked - r.returned for r in settlement.bets.values() if r.final != "pending"), Fraction(0))
    assert exact == settlement.commission
    doc = settlement.document()
    assert doc["house"]["net"] == -sum(b["returned"] - b["staked"] for b in doc["bets"].values())
