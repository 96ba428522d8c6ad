"""The spec's circle-poker cases that a settlement alone does not show: rankings, who acts, the irregularity
procedures with the common cards, stub exhaustion, session fees, the rules data. Each test names its case id."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tapete.catalog import get_game
from tapete.conformance.document import parse, settle_document
from tapete.core.errors import TapeteError
from tapete.games.poker import betting as bt
from tapete.games.poker import hands
from tapete.games.poker.circle import VARIANTS, CircleState
from tapete.games.poker.circle_rules import RULES


def cards(text: str) -> list[str]:
    return [c[0].upper() + c[1].upper() for c in text.split()]


def run(doc: dict) -> CircleState:
    """The state after every event (no defaults applied), to look inside the hand."""
    p = parse(doc)
    state = p.game.open(p.jurisdiction, p.table, p.shoe)
    for e in p.events:
        state = p.game.step(state, e)
    return state


def doc(game: str, players: list[str], shoe: list[str], acts: list[dict], j: str = "ES-AN", **table) -> dict:
    n = len(players)
    if game == "poker-sintetico":
        seats = [{"seat": k + 1, "player": p, "stack": 100000} for k, p in enumerate(players)]
    else:
        seats = [{"seat": n - k, "player": p, "stack": 100000} for k, p in enumerate(players)]
    ante = 500 if j == "ES-AN" else 1000
    t = {"minimum": 1000, "ante": ante, "rake": 5 if j == "ES-AN" else 3, "seats": seats, "button": 1, **table}
    events = [{"bet": {"id": p.lower(), "player": p, "kind": "hand", "amount": ante}} for p in players]
    events += [{"deal": {}}] + [{"act": a} for a in acts]
    return {"game": game, "jurisdiction": j, "table": t, "shoe": shoe, "events": events}


def act(p: str, do: str, **fields) -> dict:
    return {"bet": p.lower(), "do": do, **fields}


def croupier(do: str) -> dict:
    return {"by": "croupier", "do": do}


# ------------------------------------------------------------------------------------------------ rankings


def draw_rank(text: str, deck: int = 52) -> int:
    return hands.high("five", cards(text), [], "draw-32" if deck == 32 else "draw-52")


def test_D_01_openers_need_jacks() -> None:
    jacks = hands.opening_minimum(0)
    assert not hands.has_openers(draw_rank("Ts Td 8c 5h 2s"), jacks)
    assert hands.has_openers(draw_rank("Jc Jh 9d 6s 3c"), jacks)


def test_D_03_openers_escalate_after_blank_hands() -> None:
    assert [hands.opening_minimum(k) for k in range(5)] == [9, 10, 11, 12, 12]   # J Q K A A
    aces = hands.opening_minimum(3)
    assert hands.has_openers(draw_rank("Kh Kd Ks 4c 2h"), aces)
    assert not hands.has_openers(draw_rank("Kh Kd Qs 4c 2h"), aces)


def test_D_04_figuras_beat_two_pair() -> None:
    assert draw_rank("Qs Qd Jc Jh Kd") > draw_rank("As Ad Kc Kh 2s")


def test_D_05_three_of_a_kind_beats_figuras() -> None:
    assert draw_rank("7s 7d 7c Kc 2d") > draw_rank("Kh Kd Qs Jc Ah")


def test_D_06_figuras_tie_break() -> None:
    assert draw_rank("Ks Kd Ac Qh Jd") > draw_rank("Kh Kc Qs Qd Jh")


def test_D_07_flush_over_full_with_32_cards_only() -> None:
    assert draw_rank("7h 9h Jh Qh Ah", 32) > draw_rank("Ks Kd Kc 8h 8d", 32)
    assert draw_rank("7h 9h Jh Qh Ah", 52) < draw_rank("Ks Kd Kc 8h 8d", 52)


def test_D_08_lowest_straight_with_32_cards() -> None:
    assert draw_rank("Ac 7d 8h 9s Td", 32) > draw_rank("Jc Jd Js 9c 8d", 32)


def test_S_02_F_01_bring_in_keys() -> None:
    low = min(["As", "2d", "7h", "Jc"], key=lambda c: hands.bring_in_key(cards(c)[0]))
    assert low == "2d"
    assert min(["4s", "4h", "Jd"], key=lambda c: hands.bring_in_key(cards(c)[0])) == "4h"
    assert min(["Kh", "3d", "9s", "3c"], key=lambda c: hands.bring_in_key(cards(c)[0])) == "3c"


def test_S_04_S_05_F_04_showing_hands() -> None:
    assert hands.showing(cards("3d 3s")) > hands.showing(cards("Kh 7d")) > hands.showing(cards("Qc 3c"))
    assert hands.showing(cards("Qh Jh")) == hands.showing(cards("Qs Jd")) > hands.showing(cards("9s 4h"))
    assert hands.showing(cards("4h 4c")) > hands.showing(cards("4s Kd"))


# ------------------------------------------------------------------------------------------------ common rules


def test_G_20_session_fees() -> None:
    assert bt.session_fee("b", rate=15, basis=50000) == 7500
    assert bt.session_fee("b", rate=10, basis=100000) == 10000
    assert bt.session_fee("c", amount=3000) == 3000
    with pytest.raises(TapeteError):
        bt.session_fee("b", rate=25, basis=50000)


def test_G_19_a_skipped_turn_is_a_check() -> None:
    state = run(doc("holdem", ["A", "B", "C"], cards("As Ks Qs Ah Kh Qh") + cards("2c 3d 5h 8s 9c Tc Jd 4s"), []))
    game = get_game("holdem")
    state = game.finish(state)
    assert state.log.count("A checks") == 4


def test_rules_cite_every_field() -> None:
    for game_id, per in RULES.items():
        for j, rules in per.items():
            assert rules.missing_sources() == [], (game_id, j)
    for game_id in ("casino-monte", "monte-banca"):
        for rules in get_game(game_id).rules.values():
            assert rules.missing_sources() == []


def test_SY_09_banked_minimum_players_is_recorded_not_checked() -> None:
    """ES-IB: at least four players (000:1491); a round document is not refused for three (docs/vocabulary.md §0.4)."""
    assert "four" in " ".join(RULES["poker-sintetico"]["ES-IB"].special)
    d = doc("poker-sintetico", ["X", "Y", "Z"], cards("As Ks Qs Ah Kh Qh 8h 9h Th Jh 8s"), [], j="ES-IB")
    assert "error" not in settle_document(d)


def test_jurisdiction_differences_of_sintetico() -> None:
    an, ib = RULES["poker-sintetico"]["ES-AN"], RULES["poker-sintetico"]["ES-IB"]
    assert an.rake_max == 5 and ib.rake_max == 3
    assert an.raise_rule == "double" and ib.raise_rule == "any"
    assert an.structures == ("no-limit",) and "fixed" in ib.structures
    assert an.ante_max_half and not ib.ante_max_half
    assert an.out_of_turn_withdraw and not ib.out_of_turn_withdraw


def test_G_18_ES_IB_out_of_turn_bet_stands_after_an_intermediate_raise() -> None:
    """000:1589: valid, he may not raise it; unlike 003:4790-4795 he may not withdraw it."""
    acts = [act("X", "check"), act("Y", "check"), act("Z", "check"),
            act("Z", "bet", amount=2000, **{"out-of-turn": True}), act("X", "check"), act("Y", "bet", amount=4000),
            act("Z", "fold")]
    d = doc("poker-sintetico", ["X", "Y", "Z"], cards("As Ks Qs Ah Kh Qh 8h 9h Th Jh 8s"), acts, j="ES-IB")
    got = settle_document(d)
    assert got["bets"]["z"]["staked"] == 3000           # his 20 stayed in


# ------------------------------------------------------------------------------------------------ common cards


HOLES3 = cards("As Ks Qs Ah Kh Qh")


def test_O_05_forgot_to_burn_noticed_before_two_actions() -> None:
    shoe = HOLES3 + cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd")
    state = run(doc("holdem", ["A", "B", "C"], shoe, [act("A", "check"), act("B", "check"), act("C", "check"),
                                                       act("A", "check"), croupier("no-burn")]))
    assert state.hand.board == cards("3d 4h 5s") and state.hand.burned == cards("2c")


def test_O_05_forgot_to_burn_noticed_after_two_actions() -> None:
    shoe = HOLES3 + cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd")
    acts = [act("A", "check"), act("B", "check"), act("C", "check"), act("A", "check"), act("B", "check"),
            croupier("no-burn"), act("C", "check")]
    state = run(doc("holdem", ["A", "B", "C"], shoe, acts))
    assert state.hand.board == cards("2c 3d 4h 6c")       # the flop 2c 3d 4h stands; 5s went back on the stub
    assert state.hand.burned == cards("5s")                # and was the turn's burn card


def test_O_06_premature_turn() -> None:
    """b2 t turned during round 2: t is set aside, b3 burned and r turned as the turn; after round 3 the stub
    and t are shuffled and the river turned without a burn (here t itself comes)."""
    flop = cards("2c 3d 4h 5s")
    shoe = HOLES3 + flop + cards("6c 7d 8h 9s 7d")
    acts = [act(p, "check") for p in "ABC"] + [act("A", "check"), croupier("premature-card"), act("B", "check"),
                                               act("C", "check")] + [act(p, "check") for p in "ABC"]
    state = run(doc("holdem", ["A", "B", "C"], shoe, acts))
    assert state.hand.board == cards("3d 4h 5s 9s 7d")
    assert state.hand.burned == cards("2c 6c 8h")
    bad = HOLES3 + flop + cards("6c 7d 8h 9s As")
    answer = settle_document(doc("holdem", ["A", "B", "C"], bad, acts))
    assert answer["error"]["code"] == "bad-card"


def test_O_07_premature_flop() -> None:
    shoe = HOLES3 + cards("2c 3d 4h 5s") + cards("5s 4h 3d") + cards("6c 7d 8h 9s")
    acts = [act("A", "check"), croupier("premature-card"), act("B", "check"), act("C", "check")]
    state = run(doc("holdem", ["A", "B", "C"], shoe, acts))
    assert state.hand.burned == cards("2c")          # the burn card stays; the new flop has none
    assert state.hand.board == cards("5s 4h 3d")


def test_O_08_premature_river() -> None:
    shoe = HOLES3 + cards("2c 3d 4h 5s 6c 7d 8h 9s 9s")
    acts = [act(p, "check") for p in "ABC"] * 2 + [act("A", "check"), croupier("premature-card"), act("B", "check"),
                                                   act("C", "check")]
    state = run(doc("holdem", ["A", "B", "C"], shoe, acts))
    assert state.hand.board == cards("3d 4h 5s 7d 9s")
    assert state.hand.burned == cards("2c 6c 8h")


def test_premature_card_needs_an_open_round() -> None:
    answer = settle_document(doc("holdem", ["A", "B"], cards("As Ks Ah Kh 2c 3d 4h 5s 6c 7d 8h 9s"),
                                 [croupier("premature-card")] * 0 + [act("A", "check"), act("B", "check")] * 4
                                 + [croupier("premature-card")]))
    assert answer["error"]["code"] in ("illegal-action", "bad-document")


def test_SY_10_two_commons_exposed_ES_AN() -> None:
    """Round 3: the 3rd is valid, the 4th set aside, the 5th laid face down, the 4th's place filled from the stub
    re-mixed with it (R-SYN-REPLACE): here the same card comes back."""
    shoe = cards("As Ks Ah Kh 8h 9h Th Jh Qs Jh")
    acts = [act("A", "check"), act("B", "check")] * 2 + [croupier("premature-card")] + [act("A", "check"),
                                                                                         act("B", "check")] * 3
    state = run(doc("poker-sintetico", ["A", "B"], shoe, acts))
    assert state.hand.board == cards("8h 9h Th Jh Qs")


def test_SY_07_banked_two_commons_exposed_ES_IB() -> None:
    """000:1573: the first stands; the other is replaced by an unused card of the deck."""
    shoe = cards("As Ks Ah Kh 8h 9h Th Jh Qs Qc")
    acts = [act("A", "check"), act("B", "check")] + [croupier("premature-card")] + [act("A", "check"),
                                                                                     act("B", "check")] * 4
    state = run(doc("poker-sintetico", ["A", "B"], shoe, acts, j="ES-IB"))
    assert state.hand.board == cards("8h 9h Qc Jh Qs")
    assert state.hand.burned == cards("Th")


# ------------------------------------------------------------------------------------------------ stud


STUD4 = ["2c 2h Kh 7d Kc 3h 9c", "4s 4h 3d Ts 5s 6s 8s", "4c 4d 9s Ad 6h 7h 8h", "5c 5d 3c Qc 7c 8c 9d"]


def stud_shoe(holes: list[str]) -> list[str]:
    from tapete.games.poker.circle import stacked_shoe

    return stacked_shoe("seven-stud", [cards(h) for h in holes])


def test_S_12_one_exposed_hole_card_stays_up_and_the_third_goes_down() -> None:
    state = run(doc("seven-stud", ["A", "B", "C", "D"], stud_shoe(STUD4), [act("C", "exposed-card", cards=["4D"])]))
    hand = state.hand
    assert hand.up[2][:3] == [False, True, False]
    # the up-cards are now A Kh, B 3d, C 4d, D 3c: D still brings in
    assert hand.betting.seats[hand.betting.to_act].player == "D"
    state = run(doc("seven-stud", ["A", "B", "C", "D"], stud_shoe(STUD4), [act("D", "exposed-card", cards=["5C"])]))
    # D's 3c is turned down, his 5c up: B's 3d is now the lowest
    assert state.hand.betting.seats[state.hand.betting.to_act].player == "B"


def test_S_12_both_hole_cards_exposed_void_the_hand_and_return_the_ante() -> None:
    d = doc("seven-stud", ["A", "B", "C", "D"], stud_shoe(STUD4), [act("C", "exposed-card", cards=["4C", "4D"])])
    answer = settle_document(d)
    assert answer["bets"]["c"]["staked"] == answer["bets"]["c"]["returned"] == 500


def test_S_14_exposed_seventh_card_heads_up() -> None:
    holes = ["2c 2h Kh 7d Kc 3h 9c", "4s 4h 3d Ts 5s 6s As"]
    acts = [act("B", "bet", amount=1000), act("A", "call")] + [act(p, "check") for p in "AB"] * 3
    state = run(doc("seven-stud", ["A", "B"], stud_shoe(holes), acts + [act("B", "exposed-card", cards=["AS"])]))
    hand = state.hand
    assert hand.up[1][6] and hand.up[0][6]          # heads-up: both seventh cards play face up
    assert hand.betting.round == 5


def test_expose_by_mistake_turns_the_next_stud_card_up() -> None:
    acts = [act("C", "expose"), act("D", "bet", amount=1000), act("A", "call"), act("B", "call"), act("C", "call")]
    state = run(doc("seven-stud", ["A", "B", "C", "D"], stud_shoe(STUD4), acts))
    assert state.hand.up[2][3] is True


# ------------------------------------------------------------------------------------------------ draw


def test_D_17_stub_exhaustion_reshuffles_the_discards_but_the_openers_and_the_recipients() -> None:
    deck = [r + s for r in "AKQJT98765432" for s in "SHDC"]
    holes = [deck[k::6][:5] for k in range(6)]            # dealt one at a time from the mano
    shoe = [h[r] for r in range(5) for h in holes]
    stub = deck[30:]
    players = ["A", "B", "C", "D", "E", "F"]
    acts = [act("A", "bet", amount=1000)] + [act(p, "call") for p in players[1:]]
    acts += [act(p, "draw", cards=holes[k]) for k, p in enumerate(players[:5])]
    # A, B, C, D draw 20 of the 22; E gets the 21st, then the last one and B's, C's, D's discards are reshuffled
    good = shoe + stub + holes[1][:4]          # B's discards are in the new packet
    state = run(doc("draw-poker", players, good, acts))
    assert state.hand.reshuffled
    assert holes[0][0] not in state.hand.packet and holes[4][0] not in state.hand.packet   # opener's, E's own
    for banned in (holes[0][0], holes[4][1]):
        answer = settle_document(doc("draw-poker", players, shoe + stub + [banned], acts))
        assert answer["error"]["code"] == "bad-card"


@pytest.mark.parametrize("game_id", list(VARIANTS))
def test_every_variant_lists_its_verbs_and_table(game_id: str) -> None:
    info = get_game(game_id).info()
    assert "fold" in info["verbs"] and "croupier:premature-card" in info["verbs"]
    assert {"minimum", "seats"} <= {t["key"] for t in info["table"]}


def test_rake_rounds_down_per_pot() -> None:
    assert bt.rake_of(101, Fraction(5)) == 5
    assert bt.rake_of(9000, Fraction(5)) == 450


def test_buy_in_range_of_the_resto_inicial() -> None:
    """The resto inicial a live table seats players with (R: docs/rulings.md#circle-server-buy-in): at least 10 m in
    Andalucía, where the minimum bet is at most 10 % of it (003:4374-4380), default at most 100 m; Baleares'
    sintético 25 m to 100 m (000:1483-1487). A table without seats opens (the server fills them each hand)."""
    holdem, sintetico = get_game("holdem"), get_game("poker-sintetico")
    assert holdem.buy_in_range("ES-AN", {"minimum": 200}) == (2000, 20000)
    assert holdem.buy_in_range("ES-AN", {"minimum": 200, "buy-in": 5000, "buy-in-max": 50000}) == (5000, 50000)
    assert sintetico.buy_in_range("ES-IB", {"minimum": 200}) == (5000, 20000)
    for jurisdiction, game, table in (("ES-AN", holdem, {"minimum": 200, "buy-in": 1999}),
                                      ("ES-AN", holdem, {"minimum": 200, "buy-in": 3000, "buy-in-max": 2500}),
                                      ("ES-IB", sintetico, {"minimum": 200, "buy-in-max": 20001})):
        with pytest.raises(TapeteError) as err:
            game.open(jurisdiction, table)
        assert err.value.code == "bad-table" and err.value.source.startswith(("003:4374", "000:1483"))
    empty = holdem.open("ES-AN", {"minimum": 200})
    assert empty.seats == {} and empty.button is None
