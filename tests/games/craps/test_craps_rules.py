"""Craps rules and reducer: golden cases the round format cannot pin, jurisdiction differences, options, errors.

Golden cases expressible as round documents are in src/tapete/lab/golden/craps.jsonl (run by tests/golden); here every
case marked (ALL) there is replayed in the four jurisdictions, and the rest of the spec's cases are unit tests
named by their ids.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Close, Deal, Limits, Outcome, Void
from tapete.lab.cases import golden_path

GAME = get_game("craps")
ROOT = Path(__file__).parents[3]
JURISDICTIONS = ["ES", "ES-IB", "ES-GA", "ES-AN"]
TABLE = {"minimum": 500, "maximum": 100000}
GOLDEN = [json.loads(line) for line in (golden_path() / "craps.jsonl").read_text(encoding="utf-8").splitlines()
          if line.strip()]


def play(events: list, jurisdiction: str = "ES", table: dict | None = None):
    state = GAME.open(jurisdiction, table or TABLE)
    for e in events:
        state = GAME.step(state, e)
    return state


def bet(i: str, kind: str, amount: int, on: tuple | None = None, player: str = "p1") -> Bet:
    return Bet(i, player, kind, amount, on)


def roll(a: int, b: int) -> Outcome:
    return Outcome("roll", [a, b])


def result(state, bet_id: str):
    return GAME.settle(state).bets[bet_id]


# -- the golden file -------------------------------------------------------------------------------
def test_every_golden_case_id_of_the_spec_is_covered() -> None:
    ids = set(json.loads((ROOT / "tests" / "golden" / "spec_case_ids.json").read_text(encoding="utf-8"))["craps"])
    golden = {c["name"].split()[0][:5] for c in GOLDEN}
    here = set(re.findall(r"def test_(GC_\d+)", Path(__file__).read_text(encoding="utf-8")))
    covered = golden | {i.replace("_", "-") for i in here}
    assert ids and ids <= covered, sorted(ids - covered)


@pytest.mark.parametrize("case", [c for c in GOLDEN if c["name"].endswith("(ALL)")], ids=lambda c: c["name"][:40])
def test_golden_cases_marked_ALL_hold_in_every_jurisdiction(case: dict) -> None:
    answers = []
    for j in JURISDICTIONS:
        answer = settle_document({**case["doc"], "jurisdiction": j})
        answer.pop("jurisdiction", None)
        if "error" in answer:             # the same refusal, each citing its own text
            answer = {"error": answer["error"]["code"]}
        answers.append(json.dumps({k: v for k, v in answer.items() if k != "log"}, sort_keys=True))
    assert len(set(answers)) == 1, answers


# -- unit tests for the cases the format cannot express ----------------------------------------------
def test_GC_01_phase_and_shooter_stay_through_naturals_and_craps() -> None:
    state = play([bet("w", "pass", 1000), roll(3, 4), bet("w2", "pass", 1000), roll(5, 6), bet("w3", "pass", 1000),
                  roll(1, 1), bet("w4", "pass", 1000), roll(1, 2)])
    assert state.phase == "come-out" and state.point is None and state.shooter == 1


def test_GC_02_bar_12_keeps_the_come_out_and_the_seven_out_passes_the_dice() -> None:
    state = play([bet("w", "pass", 1000), bet("d", "dont-pass", 1000), roll(6, 6)])
    assert state.phase == "come-out" and [b.id for b in state.bets] == ["d"] and state.bets[0].ties == 1
    state = GAME.step(GAME.step(state, roll(2, 2)), roll(3, 4))
    assert result(state, "d").returned == 2000 and state.shooter == 2


def test_GC_03_puck_white_on_the_point_and_black_after_it_in_andalucia() -> None:
    state = play([bet("w", "pass", 1000), roll(1, 3)], "ES-AN")
    assert state.phase == "point" and state.point == 4 and "white side up" in state.log[-1]
    state = GAME.step(state, roll(2, 2))
    assert state.phase == "come-out" and "black side up" in state.log[-1] and state.shooter == 1
    assert "white" not in " ".join(play([bet("w", "pass", 1000), roll(1, 3)], "ES").log)


def test_GC_04_seven_out_changes_the_shooter() -> None:
    state = play([bet("w", "pass", 1000), roll(4, 6), bet("o", "odds", 1000, ("w",)), roll(5, 6), roll(3, 4)])
    assert state.shooter == 2 and state.phase == "come-out"


def test_GC_11_and_GC_13_a_come_out_seven_keeps_the_shooter() -> None:
    state = play([bet("w", "pass", 1000), roll(3, 3), bet("c", "come", 1000), bet("d", "dont-come", 1000), roll(4, 2)])
    assert state.phase == "come-out" and {b.id: b.number for b in state.bets} == {"c": 6, "d": 6}
    state = GAME.step(state, roll(3, 4))
    assert state.shooter == 1 and not state.bets


def test_GC_12_the_come_out_number_also_becomes_the_point() -> None:
    case = next(c for c in GOLDEN if c["name"].startswith("GC-12"))
    from tapete.conformance.document import parse

    doc = parse(case["doc"])
    state = GAME.open(doc.jurisdiction, doc.table)
    for e in doc.events:
        state = GAME.step(state, e)
    assert state.phase == "point" and state.point == 6


def test_GC_21_exact_fractions_before_the_document_rounds() -> None:
    assert result(play([bet("r", "place", 1000, (6,)), roll(3, 3)]), "r").returned == Fraction(6500, 3)
    lay = play([bet("d", "dont-pass", 1000), roll(1, 4), bet("o", "odds", 1000, ("d",)), roll(3, 4)])
    assert result(lay, "o").returned - 1000 == Fraction(2000, 3)
    assert result(play([bet("x", "place-to-lose", 1000, (4,)), roll(3, 4)]), "x").returned == 1000 + Fraction(5000, 11)


def test_GC_21_house_rounding_option_rounds_the_other_way() -> None:
    doc = {"game": "craps", "jurisdiction": "ES", "table": {**TABLE, "rounding": "house"},
           "events": [{"bet": {"id": "r", "player": "p", "kind": "place", "on": [6], "amount": 1000}}, {"roll": [3, 3]}]}
    assert settle_document(doc)["bets"]["r"]["returned"] == 2166


def test_GC_24_staffing_one_croupier_only_in_the_balearics() -> None:
    assert GAME.rules["ES-IB"].croupiers == (1, 2)
    assert all(GAME.rules[j].croupiers == (2,) for j in ("ES", "ES-GA", "ES-AN"))


def test_GC_24_simple_maximum_ranges() -> None:
    assert GAME.rules["ES-IB"].simple_maximum == (20, 1000)
    assert all(GAME.rules[j].simple_maximum == (100, 1000) for j in ("ES", "ES-GA", "ES-AN"))
    state = GAME.open("ES", {"minimum": 500})
    assert state.limits.maximum == 500000 and state.limits.maximum_multiple == 1500000


def test_GC_24_derived_maxima_in_legal_actions() -> None:
    state = play([])
    top = {(a.kind, a.targets[0][0] if a.targets else None): a.maximum for a in GAME.legal_actions(state)}
    assert top[("place", 4)] == 100000 and top[("place", 6)] == 120000 and top[("place", 8)] == 120000
    assert top[("place-to-lose", 6)] == 125000 and top[("place-to-lose", 5)] == 160000
    assert top[("place-to-lose", 10)] == 220000
    assert top[("any-seven", None)] == 75000 and top[("horn", None)] == 75000 and top[("hardway", 4)] == 42857
    assert top[("hardway", 8)] == 33333 and top[("eleven", None)] == 20000 and top[("craps-12", None)] == 10000
    assert ("come", None) not in top and ("pass", None) in top


def test_GC_25_the_far_wall_rule_differs_only_in_the_balearics() -> None:
    assert not GAME.rules["ES-IB"].far_wall_required
    assert all(GAME.rules[j].far_wall_required for j in ("ES", "ES-GA", "ES-AN"))
    state = play([bet("w", "pass", 1000), roll(3, 3), bet("f", "field", 1000), Void("incorrect-throw")], "ES-IB")
    assert state.void_rolls == 1 and state.rounds == 1


def test_GC_26_a_void_roll_changes_nothing_and_closes_betting() -> None:
    before = play([bet("w", "pass", 1000), roll(2, 6), bet("h", "hardway", 1000, (8,))])
    after = GAME.step(before, Void("slid"))
    assert (after.phase, after.point, after.shooter, after.rounds) == (before.phase, before.point, before.shooter, 1)
    assert [(b.id, b.status) for b in after.bets] == [(b.id, b.status) for b in before.bets]
    with pytest.raises(TapeteError) as err:
        GAME.step(after, bet("f", "field", 1000))
    assert err.value.code == "bet-closed"


def test_GC_27_a_die_on_the_floor_is_logged_and_a_new_set_comes_at_the_end_of_the_round() -> None:
    state = play([bet("w", "pass", 1000), roll(4, 5), Void("off-table")])
    assert state.die_missing and "four reserve dice" in state.log[-1]
    state = GAME.step(state, roll(1, 6))
    assert not state.die_missing and "new set of dice" in state.log[-1]


def test_GC_28_shooter_rotation() -> None:
    state = GAME.open("ES", TABLE)
    shooters = []
    for i, dice in enumerate([(3, 4), (6, 6), (2, 3), (1, 4), (4, 5), (1, 6)]):
        if state.phase == "come-out":
            state = GAME.step(state, bet(f"w{i}", "pass", 1000))
        state = GAME.step(state, roll(*dice))
        shooters.append(state.shooter)
    assert shooters == [1, 1, 1, 1, 1, 2]
    assert "the dice pass to the next player" in state.log[-1]


def test_GC_29_removable_kinds() -> None:
    rules = GAME.rules["ES"]
    assert set(rules.removable) == {"odds", "hardway", "place", "place-to-lose", "big-6", "big-8"}
    assert rules.not_removable == ("pass",)
    state = play([bet("w", "pass", 1000), roll(2, 4), bet("o", "odds", 1000, ("w",)), bet("f", "field", 1000)])
    removable = {a.bet for a in GAME.legal_actions(state) if a.verb == "remove"}
    assert removable == {"o"}
    with pytest.raises(TapeteError) as err:
        GAME.step(state, Act("remove", bet="f"))
    assert err.value.code == "illegal-action"


def test_GC_30_galician_names_on_the_same_rules() -> None:
    ga, es = GAME.rules["ES-GA"], GAME.rules["ES"]
    assert ga.names["horn"] == "Dados 11 ou horm" and ga.names["big-6"] == "Pequena ou big 6"
    assert ga.one_roll_payouts == es.one_roll_payouts and ga.place_payouts == es.place_payouts


# -- options ---------------------------------------------------------------------------------------
def test_place_8_option_off_refuses_8() -> None:
    with pytest.raises(TapeteError) as err:
        play([bet("r", "place", 1200, (8,))], table={**TABLE, "place-8": False})
    assert err.value.code == "bad-target" and "craps-place-8" in err.value.message
    play([bet("r", "place", 1200, (6,))], table={**TABLE, "place-8": False})


def test_off_on_come_out_option() -> None:
    events = [bet("w", "pass", 1000), roll(3, 3), bet("c", "come", 1000), roll(1, 4), bet("co", "odds", 1000, ("c",)),
              roll(3, 3), bet("r", "place", 1200, (8,)), bet("h", "hardway", 1000, (4,)), bet("b", "big-6", 1000),
              roll(3, 4)]
    literal = play(events)
    assert [result(literal, i).returned for i in ("c", "co", "r", "h", "b")] == [0, 0, 0, 0, 0]
    off = play(events, table={**TABLE, "off-on-come-out": True})
    assert result(off, "c").returned == 0 and result(off, "co").status == "push"    # odds handed back
    assert result(off, "r").final == "pending" and result(off, "h").final == "pending"
    assert result(off, "b").returned == 0                                          # big 6 always works


def test_remove_dont_and_come_option_takes_the_odds_down_too() -> None:
    events = [roll(2, 2), bet("d", "dont-come", 1000), roll(4, 6), bet("o", "odds", 2000, ("d",)),
              Act("remove", bet="d")]
    with pytest.raises(TapeteError):
        play(events)
    state = play(events, table={**TABLE, "remove-dont-and-come": True})
    assert result(state, "d").status == "push" and result(state, "o").status == "push" and not state.bets


def test_whole_cents_option() -> None:
    table = {**TABLE, "whole-cents": True}
    play([bet("r", "place", 1200, (6,)), bet("x", "place-to-lose", 1100, (4,)), bet("f", "field", 555)], table=table)
    with pytest.raises(TapeteError) as err:
        play([bet("d", "dont-pass", 1000), roll(2, 3), bet("o", "odds", 1000, ("d",))], table=table)
    assert err.value.code == "inexact-payout"


# -- errors ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("events", "table", "code"), [
    ([bet("b", "buy", 1000)], None, "unknown-bet-kind"),
    ([bet("b", "place", 1000, (7,))], None, "bad-target"),
    ([bet("b", "place", 1000)], None, "bad-target"),
    ([bet("b", "hardway", 1000, (5,))], None, "bad-target"),
    ([bet("b", "field", 1000, (5,))], None, "bad-target"),
    ([bet("b", "odds", 1000)], None, "bad-target"),
    ([bet("b", "field", 499)], None, "under-minimum"),
    ([bet("b", "field", 100001)], None, "over-maximum"),
    ([bet("b", "field", 500), bet("b2", "field", 99501)], None, "over-maximum"),
    ([bet("b", "field", 500), bet("b", "field", 500)], None, "bad-document"),
    ([Outcome("roll", [0, 7])], None, "bad-outcome"),
    ([Outcome("roll", [1, 2, 3])], None, "bad-outcome"),
    ([Outcome("roll", 7)], None, "bad-outcome"),
    ([Deal()], None, "bad-document"),
    ([Limits({"minimum": 100})], None, "illegal-action"),
    ([Act("remove", bet="nope")], None, "bad-document"),
    ([bet("b", "big-6", 500), Act("press", bet="b")], None, "illegal-action"),
    ([bet("b", "big-6", 500), Close(), Act("remove", bet="b")], None, "bet-closed"),
    ([bet("b", "big-6", 500), roll(3, 3), Act("remove", bet="b")], None, "illegal-action"),
    ([], {"minimum": 500, "colour": "red"}, "bad-document"),
    ([], {"minimum": 0}, "bad-document"),
    ([], {"minimum": 500, "place-8": "yes"}, "bad-document"),
    ([], {"minimum": 500, "maximum": 49999}, "bad-table"),
])
def test_bad_input_gets_an_error(events: list, table: dict | None, code: str) -> None:
    with pytest.raises(TapeteError) as err:
        play(events, table=table)
    assert err.value.code == code


def test_odds_on_a_decided_bet_are_refused() -> None:
    with pytest.raises(TapeteError) as err:
        play([bet("w", "pass", 1000), roll(3, 4), bet("o", "odds", 1000, ("w",))])
    assert err.value.code == "illegal-action" and "point" in err.value.message


def test_error_documents_name_the_rule_and_the_instrument() -> None:
    doc = {"game": "craps", "jurisdiction": "ES-AN", "table": TABLE,
           "events": [{"bet": {"id": "w", "player": "p", "kind": "pass", "amount": 1000}},
                      {"act": {"bet": "w", "do": "remove"}}]}
    error = settle_document(doc)["error"]
    assert error["code"] == "illegal-action" and error["bet"] == "w"
    assert "003:1307-1309" in error["message"] and "Orden de 4 de febrero de 2010" in error["message"]


# -- rules data ------------------------------------------------------------------------------------
def test_every_rule_cites_its_source_and_every_ruling_exists() -> None:
    merged = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r"^## (\S+)\s*$", merged, re.M))
    texts = [s for r in GAME.rules.values() for s in r.sources.values()]
    for path in (ROOT / "src" / "tapete").rglob("*.py"):
        if "craps" in path.name or path.parent.name == "craps":
            texts.append(path.read_text(encoding="utf-8"))
    for j, rules in GAME.rules.items():
        assert rules.missing_sources() == [], j
        assert rules.sources["points"].startswith({"ES": "001", "ES-IB": "000", "ES-GA": "002", "ES-AN": "003"}[j])
    for text in texts:
        for anchor in re.findall(r"docs/rulings\.md#([\w-]+)", text):
            assert anchor in anchors, anchor


def test_the_jurisdictions_differ_exactly_where_the_spec_says() -> None:
    per = {j: {name: value for name, value, _ in GAME.rules[j].items()} for j in JURISDICTIONS}
    differing = {n for n in per["ES"] if len({repr(per[j][n]) for j in JURISDICTIONS}) > 1}
    assert differing == {"names", "simple_maximum", "far_wall_required", "void_causes", "croupiers", "puck"}
    assert "no-wall" not in GAME.rules["ES-IB"].void_causes
    assert "andalucia-place-rates" in GAME.rules["ES-AN"].sources["place_payouts"]
