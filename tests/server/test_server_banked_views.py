"""Issue 20 point 2, what the banked card games' pages read from the view: the croupier's face-up card at
póquer sin descarte, each hand's combination named after a coup of Trijoker, sin descarte and Pai Gow (the
engine's evaluator), Trijoker's common cards turned up at the end, Casino Monte's rematch cards kept."""

from __future__ import annotations

from typing import Any

from tapete.catalog import get_game
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.serialize import to_json
from tapete.server.http.views import MASK, doc_view, state_view

# dealt one by one: the box takes the even places (a royal flush at sin descarte), the croupier the odd ones
DECK = ["AS", "2H", "KS", "3D", "QS", "5C", "JS", "7H", "TS", "9D", "4C", "6S", "8H", "AD"]


def dealt(game_id: str, kind: str, shoe: list[str]) -> tuple[Any, Any]:
    game = get_game(game_id)
    state = game.open("ES-AN", {"minimum": 500}, shoe=shoe)
    game.apply(state, Bet("b1", "luis", kind, 500, None, {"box": 1}))
    game.apply(state, Deal())
    return game, state


def test_sin_descarte_upcard_is_on_the_table_for_every_player() -> None:
    game, state = dealt("poker-sin-descarte", "ante", DECK)
    up = state.round.data["upcard"]
    for viewer in ("luis", "ana"):
        out = state_view(state, viewer)
        croupier = out["round"]["hands"]["croupier"]
        assert croupier.count(MASK) == 4 and up in croupier                   # one card face up, four down
        assert out["round"]["data"]["upcard"] == up
    assert state_view(state, "ana")["round"]["hands"]["1"] == [MASK] * 5        # another player's box: hidden


def test_five_card_hands_named_after_the_coup() -> None:
    game, state = dealt("poker-sin-descarte", "ante", DECK)
    named = doc_view(to_json(state), "luis", over=True)["named"]
    assert state.round.hands["1"] == ["AS", "KS", "QS", "JS", "TS"]
    assert named == {"1": "royal-flush", "croupier": "high-card"}
    assert "1" not in doc_view(to_json(state), "ana", over=True)["named"]       # a box's combination: its player's


def test_trijoker_common_cards_turned_up_and_named_at_the_end() -> None:
    game, state = dealt("trijoker", "main", DECK)
    live = state_view(state, "luis")
    assert live["round"]["hands"]["left"] == [MASK] and live["round"]["hands"]["right"] == [MASK]
    over = doc_view(to_json(state), "luis", over=True)
    assert MASK not in over["round"]["hands"]["left"] + over["round"]["hands"]["right"]
    assert over["named"]["1"] in {"straight", "flush", "straight-flush", "royal-flush", "pair", "high-card", "two-pair",
                                  "three-of-a-kind"}


def test_pai_gow_names_the_big_and_the_small_hand() -> None:
    game, state = dealt("pai-gow", "main", DECK + ["KD", "QD"])
    hand = state.round.hands["1"]
    game.apply(state, Act("set", bet="b1", fields={"high": hand[2:], "low": hand[:2]}))
    named = doc_view(to_json(state), "luis", over=True)["named"]
    big, small = named["1"].split("+")
    assert big and small in ("pair", "high-card") and "+" in named["croupier"]   # the croupier's by the house way


def test_casino_monte_keeps_the_rematch_cards() -> None:
    game = get_game("casino-monte")
    shoe = ["KD", "KH", "3C", "6H", "QH"]              # a tie of kings, one card burned, the rematch
    state = game.open("ES-AN", {"minimum": 500}, shoe=shoe)
    game.apply(state, Bet("b1", "luis", "main", 500, None, {"box": 2}))
    game.apply(state, Deal())
    assert state.tie and state.cards == {"box 2": "KD", "croupier": "KH"}
    game.apply(state, Act("rematch", bet="b1"))
    assert state.rematch_cards == {"box 2": "6H", "croupier": "QH"}
    assert to_json(state)["rematch_cards"] == {"box 2": "6H", "croupier": "QH"}


def test_baccarat_hands_get_the_engines_points_unless_a_card_is_face_down() -> None:
    from tapete.server.tables.baccarat_points import hand_totals

    view = {"game": "chemin-de-fer", "current": {
        "punto": {"cards": ["9S", "5H", "KD"], "zero_from": 0, "forced_total": None},      # 14: the units, 4 (001:640)
        "banker": {"cards": ["??", "??"], "zero_from": 0, "forced_total": None}},
        "coups": [{"punto": {"cards": ["7S", "2H", "3C"], "zero_from": 2, "forced_total": None},
                   "banker": {"cards": ["4S", "4H"], "zero_from": 0, "forced_total": 0}}]}
    hand_totals(view)
    assert view["current"]["punto"]["total"] == 4 and "total" not in view["current"]["banker"]
    assert view["coups"][0]["punto"]["total"] == 3 and view["coups"][0]["banker"]["total"] == 0
