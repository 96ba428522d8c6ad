"""Bingo reducer: money, rules data, state round trip, double cards, the caller's error, the CLI and the table."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from tapete.catalog import get_game
from tapete.cli import app
from tapete.conformance.document import settle_document
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Outcome, Void
from tapete.engine.serialize import from_json, to_json
from tapete.games.bingo import card_rows, generate_cards
from tapete.terminal import PLAYERS
from tapete.terminal.bingo import play_bingo, run_bingo

GAME = get_game("bingo")
runner = CliRunner()


def play_session(data: st.DataObject) -> tuple:
    """One to three games driven through the reducer as a hall would: cards of several face values (some
    double), auto or called claims, the draw in random chunks, random calls, sometimes the caller's error."""
    rng = TableRng(data.draw(st.binary(min_size=16, max_size=16)))
    claims = data.draw(st.sampled_from(["auto", "called"]))
    games = data.draw(st.integers(1, 3))
    prizes = [{"line": data.draw(st.integers(0, 5000)), "bingo": data.draw(st.integers(0, 30000))} for _ in range(games)]
    state = GAME.open(data.draw(st.sampled_from(["ES", "ES-IB"])), {"minimum": 100, "prizes": prizes, "claims": claims})
    serial = 0
    for g in range(games):
        for grid in generate_cards(rng, data.draw(st.integers(0 if state.next_cards else 1, 6))):
            serial += 1
            double = g < games - 1 and data.draw(st.booleans())
            GAME.apply(state, Bet(f"c{serial}", f"p{serial % 3}", "card", data.draw(st.sampled_from([100, 150, 300])),
                                  tuple(grid), {"double": double}))
        order = list(range(1, 91))
        rng.shuffle(order)
        void_at = data.draw(st.one_of(st.none(), st.integers(1, 60)))
        at = 0
        while True:
            for ball in order[at:at + data.draw(st.integers(1, 12))]:
                if state.partidas and state.partidas[-1].number == g + 1 and state.partidas[-1].status != "drawing":
                    break                                # an auto table stops on the bingo ball
                GAME.apply(state, Outcome("draw", [ball]))
                at += 1
            game = state.partidas[-1]
            if claims == "called":
                for cid in data.draw(st.lists(st.sampled_from(game.cards), max_size=3)):
                    GAME.apply(state, Act(data.draw(st.sampled_from(["line", "bingo"])), bet=cid))
                if at == 90:
                    for cid in game.cards:
                        GAME.apply(state, Act("bingo", bet=cid))
            if void_at is not None and at >= void_at and game.status in ("drawing", "ending"):
                GAME.apply(state, Void("caller-error"))
            if game.status != "drawing":
                break
    return state, GAME.settle(GAME.finish(state)).document()


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_prizes_plus_house_share_equal_the_sales_to_the_cent(data: st.DataObject) -> None:
    state, answer = play_session(data)
    sales = sum(b["staked"] for b in answer["bets"].values())
    paid = sum(b["returned"] for b in answer["bets"].values())
    assert paid + answer["house"]["net"] == sales and answer["house"]["commission"] == 0
    by_id = state.cards
    for game in state.partidas:
        if game.status == "void":
            assert game.paid == {}
            continue
        if set(game.line_winners).isdisjoint(game.bingo_winners):
            for prize, winners in ((game.line_prize, game.line_winners), (game.bingo_prize, game.bingo_winners)):
                got = sum(game.paid.get(c, 0) for c in winners)
                assert prize - len(winners) < got <= prize          # truncated per card, never more than announced
    refunds = sum(by_id[c].amount for g in state.partidas if g.status == "void" for c in g.cards)
    announced = sum(g.line_prize + g.bingo_prize for g in state.partidas if g.status == "ended")
    assert refunds <= paid <= refunds + announced
    assert answer["rounds"] == sum(g.status == "ended" for g in state.partidas)


def test_prize_amounts_are_inputs_and_say_so_in_the_rules() -> None:
    for jurisdiction in ("ES", "ES-IB"):
        rules = GAME.rules_for(jurisdiction)
        assert "table.prizes" in rules.prize_amounts and "Reglamento" in rules.prize_amounts
        assert rules.missing_sources() == []
    assert GAME.rules["ES-IB"].sources["numbers"].startswith("000:45-47")
    result = runner.invoke(app, ["rules", "bingo", "-j", "ES", "--json"])
    shown = {r["rule"]: r for r in json.loads(result.stdout)["rules"]}
    assert "table.prizes" in shown["prize_amounts"]["value"] and "001:1122" in shown["prize_amounts"]["source"]
    diff = json.loads(runner.invoke(app, ["diff", "bingo", "--json"]).stdout)
    assert diff["differences"] == []                # ES-IB applies the national order as it stands (000:45-47)


def test_no_house_edge_is_claimed_for_bingo() -> None:
    """Its prizes are shares of the card sales: `edge` refuses (issue 28 point 4) and names the command that answers."""
    result = runner.invoke(app, ["edge", "bingo", "--json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "no-house-edge" and "`tapete bingo`" in error["message"]


def test_state_round_trips_through_json_mid_game() -> None:
    grids = generate_cards(TableRng(b"r" * 16), 5)
    state = GAME.open("ES", {"minimum": 100, "prizes": [{"line": 500, "bingo": 2000}, {"line": 1, "bingo": 2}],
                             "claims": "called"})
    for i, g in enumerate(grids):
        state = GAME.step(state, Bet(f"c{i}", "p", "card", 100, tuple(g), {"double": i == 0, "series": "A", "serial": i}))
    state = GAME.step(state, Outcome("draw", card_rows(grids[1])[0] + [90, 1]))
    state = GAME.step(state, Act("line", bet="c1"))
    again = from_json(GAME.state_type(), json.loads(json.dumps(to_json(state))))
    assert again == state
    assert GAME.legal_actions(again) == GAME.legal_actions(state)
    assert len(GAME.chance(state)) == 90 - len(state.partidas[-1].drawn)


def test_caller_error_voids_only_its_game_and_a_double_card_plays_on() -> None:
    """B6 with a double card: game 1 void (face value back), its second half plays game 2."""
    x, y = generate_cards(TableRng(b"v" * 16), 2)
    doc = {"game": "bingo", "jurisdiction": "ES", "table": {"minimum": 100, "prizes": [{"line": 500, "bingo": 3000}] * 2},
           "events": [{"bet": {"id": "X", "player": "p", "kind": "card", "amount": 300, "on": x, "double": True}},
                      {"draw": [74]}, {"void": "caller announced 47"},
                      {"bet": {"id": "Y", "player": "q", "kind": "card", "amount": 300, "on": y}},
                      {"draw": [n for row in card_rows(x) for n in row]}]}
    answer = settle_document(doc)
    assert answer["bets"]["X"] == {"status": "won", "staked": 600, "returned": 300 + 3500}
    assert answer["bets"]["Y"]["returned"] == 0 and answer["rounds"] == 1


def test_a_void_after_a_line_cancels_that_line_prize() -> None:
    (x,) = generate_cards(TableRng(b"w" * 16), 1)
    first = card_rows(x)[0]
    doc = {"game": "bingo", "jurisdiction": "ES", "table": {"minimum": 100, "prizes": [{"line": 500, "bingo": 3000}]},
           "events": [{"bet": {"id": "X", "player": "p", "kind": "card", "amount": 300, "on": x}},
                      {"draw": first}, {"void": "caller-error"}]}
    answer = settle_document(doc)
    assert answer["bets"]["X"] == {"status": "void", "staked": 300, "returned": 300}


def test_a_card_sold_after_a_verified_bingo_closes_the_window_and_joins_the_next_game() -> None:
    x, y = generate_cards(TableRng(b"n" * 16), 2)
    xs = [n for row in card_rows(x) for n in row]
    state = GAME.open("ES", {"minimum": 100, "prizes": [{"line": 500, "bingo": 3000}, {"line": 500, "bingo": 3000}],
                             "claims": "called"})
    state = GAME.step(state, Bet("X", "p", "card", 100, tuple(x)))
    state = GAME.step(state, Outcome("draw", xs))
    state = GAME.step(state, Act("bingo", bet="X"))
    assert any(a.verb == "bet" for a in GAME.legal_actions(state))
    state = GAME.step(state, Bet("Y", "q", "card", 100, tuple(y)))
    assert state.partidas[0].status == "ended" and state.next_cards == ["Y"]
    state = GAME.step(state, Outcome("draw", [1]))
    assert state.partidas[1].cards == ["Y"]


def test_tapete_bingo_runs_a_game_and_prints_its_record() -> None:
    result = runner.invoke(app, ["bingo", "--cards", "50", "--seed", "00" * 16, "--json"])
    assert result.exit_code == 0, result.stdout
    record = json.loads(result.stdout)
    assert record["seed"] == "00" * 16 and len(record["document"]["events"]) == 51
    again = settle_document(record["document"])        # the record replays through `tapete settle`
    assert again == record["settlement"]
    assert record["bingo"]["ball"] == len(record["draw"])
    assert sum(b["returned"] for b in again["bets"].values()) == 50 * 100 * 60 // 100


def test_run_bingo_with_a_thousand_cards_and_announced_prizes() -> None:
    out = io.StringIO()
    record = run_bingo(cards=1000, seed="01" * 16, price=200, line=10000, bingo=50000, jurisdiction="ES-IB",
                       console=Console(file=out, width=100), live=False, lang="en")
    text = out.getvalue()
    assert "1000 cards at €2.00" in text and "Bingo on ball" in text and "Line on ball" in text
    assert record["settlement"]["house"]["net"] == 1000 * 200 - 60000


def test_bad_options_get_an_error_document() -> None:
    result = runner.invoke(app, ["bingo", "--cards", "0", "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["code"] == "bad-document"


def test_play_bingo_at_the_terminal() -> None:
    lines = iter(["2", "", "", "a", "x", "1", "a", "quit"])
    out = io.StringIO()
    assert PLAYERS["bingo"] is play_bingo          # `tapete play bingo` (play_game) finds it
    play_bingo(GAME, "ES", minimum=100, balance=1000, seed="02" * 16, console=Console(file=out, width=110),
               read=lambda _prompt="": next(lines))
    text = out.getvalue()
    assert "your card" in text and "Game 1 over" in text and "Game 2 over" in text and "Good night" in text
    assert "A number of cards you can pay for" in text


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=16, max_size=16), st.sampled_from(["auto", "called"]))
def test_step_is_pure_even_without_a_deep_copy(seed: bytes, claims: str) -> None:
    """`step` copies only what can change: every earlier state must stay exactly as it was."""
    rng = TableRng(seed)
    grids = generate_cards(rng, 4)
    order = list(range(1, 91))
    rng.shuffle(order)
    state = GAME.open("ES", {"minimum": 100, "prizes": [{"line": 500, "bingo": 3000}] * 2, "claims": claims})
    history = []
    events = [Bet(f"c{i}", "p", "card", 100, tuple(g), {"double": i == 0}) for i, g in enumerate(grids)]
    events += [Outcome("draw", [b]) for b in order[:30]]
    for event in events:
        history.append((state, json.dumps(to_json(state))))
        state = GAME.step(state, event)
        if claims == "called" and isinstance(event, Outcome):
            history.append((state, json.dumps(to_json(state))))
            state = GAME.step(state, Act("line", bet="c1"))
        if state.partidas and state.partidas[-1].status != "drawing":
            break
    for old, snapshot in history:
        assert json.dumps(to_json(old)) == snapshot
