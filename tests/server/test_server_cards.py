"""Card tables end to end: blackjack and punto y banca, dealt from an electronic shoe committed by its seed,
several players through whole coups, decisions taken by each bet's owner, the ledger checked after each."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tapete.catalog import all_games

REGISTERED = {g.id for g in all_games()}
needs = {g: pytest.mark.skipif(g not in REGISTERED, reason=f"the {g} engine is not registered yet (tapete games)")
         for g in ("blackjack", "punto-banca")}

BLACKJACK = {"id": "bj", "game": "blackjack", "jurisdiction": "ES", "auto": False, "table": {"minimum": 500}}
PUNTO = {"id": "pb", "game": "punto-banca", "jurisdiction": "ES", "auto": False, "table": {"minimum": 1000}}


def play_coup(c: Any, table: str, bets: list[tuple[str, dict[str, Any]]], prefer: tuple[str, ...] = ("double", "stand")) -> Any:
    """Open, bet, deal; then every decision due is taken by the bet's owner until the coup settles."""
    c.post("croupier", f"/api/tables/{table}/open", key=None)
    owner: dict[str, str] = {}
    for player, bet in bets:
        placed = c.bet(player, table, bet)["bets"][0]
        owner[placed["id"]] = player
    answer = c.post("croupier", f"/api/tables/{table}/close")
    steps = 0
    while answer["phase"] == "acting":
        due = answer["due"]
        choice = next((d for verb in prefer for d in due if d["do"] == verb), due[0])
        player = owner[choice["bet"]]
        act = {"bet": choice["bet"], "do": choice["do"]}
        if choice["do"] == "insure":     # a Black-Jack against the dealer's ace: insurance (1 €) may be all that is due
            act["fields"] = {"amount": 100}
        stranger = next(p for p in ("ana", "luis", "eva") if p != player)
        c.post(stranger, f"/api/tables/{table}/acts", act, expect=403)
        answer = c.post(player, f"/api/tables/{table}/acts", act)
        if answer["phase"] == "acting":
            assert answer["due"], answer
        steps += 1
        assert steps < 40
    assert answer["phase"] == "settled"
    return answer, owner


def check_wallets(c: Any, start: dict[str, int], answers: list[tuple[Any, dict[str, str]]]) -> None:
    expected = dict(start)
    for answer, owner in answers:
        for bet_id, result in answer["bets"].items():
            expected[owner[bet_id]] += result["returned"] - result["staked"]
    for player, amount in expected.items():
        assert c.balance(player) == amount, player
    assert c.ledger()["house_accounts"]["stakes:" + c.table] == 0


@needs["blackjack"]
def test_blackjack_table_several_players(make_casino: Any, database_url: str) -> None:
    c = make_casino([BLACKJACK], database_url)
    c.table = "bj"
    start = {p: c.balance(p) for p in ("ana", "luis", "eva")}
    answers = []
    doubled = 0
    for _ in range(6):
        bets = [("ana", {"kind": "main", "amount": 1000, "extra": {"box": 1}}),
                ("luis", {"kind": "main", "amount": 500, "extra": {"box": 3}}),
                ("eva", {"kind": "main", "amount": 2000, "extra": {"box": 5}})]
        answer, owner = play_coup(c, "bj", bets)
        doubled += sum(1 for r in answer["bets"].values() if r["staked"] > 2000 or r["staked"] in (1000 * 2, 500 * 2))
        answers.append((answer, owner))
        check_wallets(c, start, answers)
    assert c.get(None, "/api/tables")["tables"][0]["shoe"]["commitment"]


@needs["blackjack"]
def test_blackjack_round_record_verifies_against_the_shoe_seed(make_casino: Any, sqlite_url: str) -> None:
    from tapete.server.tables.fairness import verify_round

    c = make_casino([BLACKJACK], sqlite_url)
    c.table = "bj"
    play_coup(c, "bj", [("ana", {"kind": "main", "amount": 1000, "extra": {"box": 1}})], prefer=("stand",))
    rid = c.get("ana", "/api/rounds?table=bj")["rounds"][0]["id"]
    record = c.get("ana", f"/api/rounds/{rid}")
    assert record["shoe"]["dealt"] and "seed" not in record["shoe"]          # the shoe's seed stays secret...
    assert verify_round(record)["ok"] is False
    with create_engine(sqlite_url).connect() as conn:                        # ...until the shoe ends; peek here
        shoe = json.loads(conn.execute(text("SELECT shoe FROM casino_tables WHERE id = 'bj'")).scalar_one())
    record["shoe"]["seed"] = shoe["seed"]
    result = verify_round(record)
    assert result["ok"], result
    assert {ch["check"] for ch in result["checks"]} == {"shoe", "settlement"}


@needs["punto-banca"]
def test_punto_banca_table_several_players(make_casino: Any, database_url: str) -> None:
    c = make_casino([PUNTO], database_url)
    c.table = "pb"
    start = {p: c.balance(p) for p in ("ana", "luis", "eva")}
    answers = []
    for _ in range(6):
        bets = [("ana", {"kind": "player", "amount": 1000}), ("luis", {"kind": "banker", "amount": 2000}),
                ("eva", {"kind": "banker", "amount": 1000})]
        answers.append(play_coup(c, "pb", bets))
        check_wallets(c, start, answers)
    commission = c.ledger()["house_accounts"].get("commission:pb", 0)
    banker_wins = sum(1 for a, _ in answers for b in a["bets"].values() if b["status"] == "won" and b["staked"] in (1000, 2000)
                      and b["returned"] < 2 * b["staked"])
    assert (commission > 0) == (banker_wins > 0)
