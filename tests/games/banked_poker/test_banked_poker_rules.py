"""Rules data, jurisdictions and the CLI's view of the four house-banked poker games."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tapete.catalog import get_game
from tapete.cli import app
from tapete.conformance.document import settle_document

GAMES = ("poker-sin-descarte", "trijoker", "tripoker", "pai-gow")
runner = CliRunner()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_cites_its_source(game_id: str) -> None:
    for rules in get_game(game_id).rules.values():
        assert rules.missing_sources() == []


def test_where_each_game_exists() -> None:
    # digest 0.2: sin descarte and Trijoker in ES-IB and ES-AN; Tripóquer and Pai Gow in ES-AN only
    assert list(get_game("poker-sin-descarte").rules) == ["ES-IB", "ES-AN"]
    assert list(get_game("trijoker").rules) == ["ES-IB", "ES-AN"]
    assert list(get_game("tripoker").rules) == ["ES-AN"]
    assert list(get_game("pai-gow").rules) == ["ES-AN"]
    for game_id, j in (("pai-gow", "ES-IB"), ("tripoker", "ES-IB"), ("trijoker", "ES"), ("poker-sin-descarte", "ES-GA")):
        doc = {"game": game_id, "jurisdiction": j, "table": {"minimum": 1000}, "shoe": [], "events": []}
        assert settle_document(doc)["error"]["code"] == "game-not-in-jurisdiction"


def test_games_json_lists_kinds_verbs_and_keys() -> None:
    out = json.loads(runner.invoke(app, ["games", "--json"]).stdout)
    by_id = {g["id"]: g for g in out["games"]}
    assert [k["kind"] for k in by_id["poker-sin-descarte"]["kinds"]] == ["ante", "insurance", "jackpot"]
    assert by_id["poker-sin-descarte"]["verbs"] == ["buy", "call", "fold", "expose"]
    assert [k["kind"] for k in by_id["trijoker"]["kinds"]] == ["main"]
    assert by_id["trijoker"]["verbs"] == ["withdraw", "keep", "expose"]
    assert [k["kind"] for k in by_id["tripoker"]["kinds"]] == ["ante", "fortune", "jackpot"]
    assert [k["kind"] for k in by_id["pai-gow"]["kinds"]] == ["main", "bank"]
    keys = {t["key"] for t in by_id["pai-gow"]["table"]}
    assert {"minimum", "commission", "house-way", "paigow-joker-mode", "house-stake"} <= keys


def test_rules_publish_the_house_way() -> None:
    # VOCABULARY §14.6: the engine publishes the house way it uses, in `tapete rules pai-gow`
    out = json.loads(runner.invoke(app, ["rules", "pai-gow", "-j", "ES-AN", "--json"]).stdout)
    rule = next(r for r in out["rules"] if r["rule"] == "house_way")
    assert "two pair" in rule["value"] and rule["source"] == "R: docs/rulings.md#pai-gow-house-way"


def test_diff_names_each_jurisdiction_difference() -> None:
    out = json.loads(runner.invoke(app, ["diff", "poker-sin-descarte", "--json"]).stdout)
    differing = {d["rule"] for d in out["differences"]}
    assert {"bets_per_box", "maximum_multiples", "maximum_scope", "jackpot_fixed", "card_purchase", "blind_boxes",
            "upcards", "jackpot_floor"} <= differing
    out = json.loads(runner.invoke(app, ["diff", "trijoker", "--json"]).stdout)
    differing = {d["rule"] for d in out["differences"]}
    assert {"maximum_multiples", "player_card_exposed", "information_forfeit", "one_box_per_player"} <= differing


def test_settle_cli_answers_with_a_settlement_and_an_error_code() -> None:
    doc = {"game": "tripoker", "jurisdiction": "ES-AN", "table": {"minimum": 500}, "shoe": ["5C", "8C", "6D", "8D", "7H", "KS"],
           "events": [{"bet": {"id": "a", "player": "p1", "kind": "ante", "box": 1, "amount": 1000}},
                      {"bet": {"id": "f", "player": "p1", "kind": "fortune", "box": 1, "amount": 500}},
                      {"act": {"bet": "a", "do": "call"}}]}
    result = runner.invoke(app, ["settle", "-"], input=json.dumps(doc))
    assert result.exit_code == 0
    answer = json.loads(result.stdout)
    assert answer["bets"]["a"] == {"status": "won", "staked": 2000, "returned": 5000}   # VOCABULARY §6's example
    assert answer["bets"]["f"] == {"status": "won", "staked": 500, "returned": 3000}
    doc["events"].append({"act": {"bet": "a", "do": "call", "amount": 1000}})
    result = runner.invoke(app, ["settle", "-"], input=json.dumps(doc))
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["code"] == "illegal-action"


def test_vocabulary_examples() -> None:
    sd = {"game": "poker-sin-descarte", "jurisdiction": "ES-AN", "table": {"minimum": 1000, "maximum": 30000},
          "shoe": ["7S", "AC", "7H", "KH", "KD", "8D", "9C", "5S", "2S", "3H"],
          "events": [{"bet": {"id": "a1", "player": "p1", "kind": "ante", "box": 1, "amount": 1000}},
                     {"act": {"bet": "a1", "do": "call"}}]}
    assert settle_document(sd)["bets"]["a1"] == {"status": "won", "staked": 3000, "returned": 6000}
    tj = {"game": "trijoker", "jurisdiction": "ES-IB", "table": {"minimum": 1000}, "shoe": ["2H", "JH", "6H", "KH", "9H"],
          "events": [{"bet": {"id": "t", "player": "p1", "kind": "main", "box": 1, "amount": 1000}},
                     {"act": {"bet": "t", "do": "keep"}}, {"act": {"bet": "t", "do": "withdraw"}}]}
    assert settle_document(tj)["bets"]["t"] == {"status": "won", "staked": 3000, "returned": 19000}
    pg = {"game": "pai-gow", "jurisdiction": "ES-AN", "table": {"minimum": 1000, "commission": 5},
          "shoe": ["QS", "QH", "8D", "6C", "3S", "KD", "JC", "KS", "KH", "9D", "9C", "4S", "AD", "QC"],
          "events": [{"bet": {"id": "m", "player": "p1", "kind": "main", "box": 1, "amount": 10000}},
                     {"act": {"bet": "m", "do": "set", "high": ["KS", "KH", "9D", "9C", "4S"], "low": ["AD", "QC"]}},
                     {"act": {"by": "croupier", "do": "set", "high": ["QS", "QH", "8D", "6C", "3S"], "low": ["KD", "JC"]}}]}
    answer = settle_document(pg)
    assert answer["bets"]["m"] == {"status": "won", "staked": 10000, "returned": 19500}
    assert answer["house"]["commission"] == 500
