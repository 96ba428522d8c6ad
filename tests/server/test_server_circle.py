"""Circle poker as a live table with money from the wallets: players sit down with a buy-in from their wallet,
whole hold'em hands are dealt from a fresh electronic pack and played through HTTP (every act validated by the
engine), stacks change only through the hands' settlements, the house takes its rake, a player leaves between
hands with his stack. After every hand the ledger balances and wallets + stacks + the house's take are exactly
what the players brought."""

from __future__ import annotations

import re
from typing import Any

import pytest

TABLE = {"id": "p", "name": "Hold'em", "game": "holdem", "jurisdiction": "ES-AN", "auto": False,
         "table": {"minimum": 200, "forced": "blinds"}}
PLAYERS = {"ana": 100_000, "luis": 100_000, "eva": 30_000, "pepe": 5_000}


@pytest.fixture
def casino(make_casino: Any, database_url: str) -> Any:
    return make_casino([TABLE], database_url, players=PLAYERS)         # SQLite and PostgreSQL


def seats(c: Any) -> dict[str, Any]:
    return c.get("croupier", "/api/tables/p")["circle"]          # the table's staff see the players' logins


def stacks(c: Any) -> dict[str, int]:
    return {s["player"]: s["stack"] for s in seats(c)["seats"]}


def house(c: Any) -> int:
    return c.ledger()["house_accounts"].get("commission:p", 0)


def money(c: Any) -> int:
    """Every player's wallet and stack, and the house's take: the players' money plus what the house raked."""
    return sum(c.balance(p) for p in PLAYERS) + sum(stacks(c).values()) + house(c)


def owners(c: Any) -> dict[str, str]:
    return {b["id"]: b["player"] for b in c.get("croupier", "/api/tables/p")["open_bets"]}


def play_hand(c: Any, policy: Any) -> dict[str, Any]:
    """Deal a hand and let each player due decide with `policy(decisions) -> act body`, from the decisions the
    engine offers him (GET /actions as that player), until the hand settles."""
    answer = c.post("croupier", "/api/tables/p/open", key=None)
    assert answer["phase"] == "acting", answer
    who = owners(c)
    for _ in range(60):
        if answer["phase"] != "acting":
            break
        player = who[answer["due"][0]["bet"]]
        mine = [d for d in c.get(player, "/api/tables/p/actions")["decisions"] if d["mine"]]
        assert mine, (player, answer)
        answer = c.post(player, "/api/tables/p/acts", policy(mine))
    assert answer["phase"] == "settled", answer
    return answer


def passive(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """Check where he may, else call; at the showdown, show."""
    verbs = {d["do"]: d for d in decisions}
    for verb in ("check", "call", "show"):
        if verb in verbs:
            return {"bet": verbs[verb]["bet"], "do": verb}
    raise AssertionError(decisions)


def aggressive(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """Raise (or bet) the least the engine allows while that is at most 1000; then call; at the showdown, show.
    The stakes stay small: nobody goes broke, every hand has at least two players."""
    verbs = {d["do"]: d for d in decisions}
    for verb in ("raise", "bet"):
        if verb in verbs and verbs[verb]["minimum"] <= 1000:
            return {"bet": verbs[verb]["bet"], "do": verb, "fields": {"amount": verbs[verb]["minimum"]}}
    return passive(decisions)


def folding(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """Check where he may, else fold: the big blind takes the blinds."""
    verbs = {d["do"]: d for d in decisions}
    verb = "check" if "check" in verbs else "fold" if "fold" in verbs else decisions[0]["do"]
    return {"bet": decisions[0]["bet"], "do": verb}


def test_sit_play_whole_hands_and_cash_out(casino: Any) -> None:
    c = casino
    start_total = sum(PLAYERS.values())
    listing = seats(c)
    assert listing["seats"] == [] and listing["free"] == list(range(1, 11))
    assert listing["buy_in"] == {"minimum": 2000, "maximum": 20000}           # 10 m to 100 m
    assert c.post("croupier", "/api/tables/p/open", key=None)["waiting"]       # nobody seated: no hand

    key = "sit-ana"
    first = c.post("ana", "/api/tables/p/seats", {"seat": 1, "buy_in": 10_000}, key=key)
    again = c.post("ana", "/api/tables/p/seats", {"seat": 1, "buy_in": 10_000}, key=key)   # a retry: nothing twice
    assert first == again and first["stack"] == 10_000 and c.balance("ana") == 90_000
    assert c.post("ana", "/api/tables/p/seats", {"seat": 2, "buy_in": 5_000}, expect=409)["error"]["code"] == "already-seated"
    assert c.post("luis", "/api/tables/p/seats", {"seat": 1, "buy_in": 5_000}, expect=409)["error"]["code"] == "seat-taken"
    assert c.post("luis", "/api/tables/p/seats", {"seat": 3, "buy_in": 1_000}, expect=422)["error"]["code"] == "under-minimum"
    assert c.post("luis", "/api/tables/p/seats", {"seat": 3, "buy_in": 30_000}, expect=422)["error"]["code"] == "over-maximum"
    assert c.post("pepe", "/api/tables/p/seats", {"seat": 3, "buy_in": 8_000}, expect=409)["error"]["code"] == "insufficient-funds"
    assert c.post("jefe", "/api/tables/p/seats", {"seat": 4, "buy_in": 5_000}, expect=403)["error"]["code"] == "forbidden"
    assert c.post("ana", "/api/tables/p/seats", {"seat": 4, "buy_in": 5_000}, key=None, expect=422)["error"]["code"] == \
        "idempotency-key-required"
    assert c.post("croupier", "/api/tables/p/open", key=None)["waiting"]       # one player: no hand
    c.post("luis", "/api/tables/p/seats", {"seat": 3, "buy_in": 15_000})
    c.post("eva", "/api/tables/p/seats", {"seat": 5, "buy_in": 20_000})
    assert c.balance("pepe") == 5_000 and c.balance("eva") == 10_000
    listing = seats(c)
    assert [(s["seat"], s["player"], s["stack"]) for s in listing["seats"]] == [(1, "ana", 10_000), (3, "luis", 15_000),
                                                                                 (5, "eva", 20_000)]
    assert listing["free"] == [2, 4, 6, 7, 8, 9, 10]
    assert money(c) == start_total

    # a hand dealt: each player sees his own two cards, nobody else's; nobody acts for another
    answer = c.post("croupier", "/api/tables/p/open", key=None)
    assert answer["phase"] == "acting"
    who = owners(c)
    assert sorted(who.values()) == ["ana", "eva", "luis"]
    due_bet = answer["due"][0]["bet"]
    other = next(p for p in ("ana", "luis", "eva") if p != who[due_bet])
    assert c.post(other, "/api/tables/p/acts", {"bet": due_bet, "do": "fold"}, expect=403)["error"]["code"] == "forbidden"
    assert c.post(who[due_bet], "/api/tables/p/seats/leave", expect=409)["error"]["code"] == "wrong-phase"
    view = c.get("ana", "/api/tables/p/view")["state"]["hand"]
    players = [s["player"] for s in view["betting"]["seats"]]
    holes = dict(zip(players, view["holes"], strict=True))
    assert len(holes["ana"]) == 2 and "??" not in holes["ana"] and holes["Seat 3"] == ["??", "??"]   # luis, by his seat
    assert stacks(c) != {"ana": 10_000, "luis": 15_000, "eva": 20_000}                # the blinds left the stacks
    c.ledger()
    for _ in range(60):
        if answer["phase"] != "acting":
            break
        player = who[answer["due"][0]["bet"]]
        mine = [d for d in c.get(player, "/api/tables/p/actions")["decisions"] if d["mine"]]
        answer = c.post(player, "/api/tables/p/acts", passive(mine))
    assert answer["phase"] == "settled"
    check_hand(c, answer, who, start_total)
    recent = c.get("luis", "/api/tables/p/view?recent=1")["recent"][0]["hand"]          # the showdown, as it was shown
    assert recent["phase"] == "over" and recent["shown"]
    for i in recent["shown"]:
        assert "??" not in recent["holes"][i]
    assert len(recent["board"]) == 5

    buttons = [c.get(None, "/api/tables")["tables"][0]["circle"]["button"]]
    for policy in (aggressive, folding, passive, aggressive):
        before = stacks(c)
        answer = play_hand(c, policy)
        check_hand(c, answer, owners_of(answer), start_total, before)
        buttons.append(seats(c)["button"])
    assert len(set(buttons)) > 1                                                         # the marca moves

    # ana leaves between hands: her whole stack goes back to her wallet
    stack = stacks(c)["ana"]
    wallet = c.balance("ana")
    out = c.post("ana", "/api/tables/p/seats/leave")
    assert out["cashed_out"] == stack and c.balance("ana") == wallet + stack == out["balance"]
    assert c.post("ana", "/api/tables/p/seats/leave", expect=409)["error"]["code"] == "not-seated"
    assert "ana" not in stacks(c) and 1 in seats(c)["free"]
    assert money(c) == start_total
    answer = play_hand(c, passive)                                                       # two players go on
    assert sorted(r["player"] for r in answer["bets"].values()) == ["eva", "luis"]
    check_hand(c, answer, owners_of(answer), start_total)
    assert house(c) > 0
    c.ledger()


def owners_of(answer: dict[str, Any]) -> dict[str, str]:
    return {b: r["player"] for b, r in answer["bets"].items()}


def check_hand(c: Any, answer: dict[str, Any], who: dict[str, str], start_total: int,
               before: dict[str, int] | None = None) -> None:
    """The ledger balances; the money is all there; each stack moved by what its hand returned less staked."""
    c.ledger()
    assert money(c) == start_total
    assert all(r["status"] in ("won", "lost", "push") for r in answer["bets"].values())
    if before is not None:
        after = stacks(c)
        for result in answer["bets"].values():
            p = result["player"]
            assert after[p] == before[p] + result["returned"] - result["staked"], (p, before, after, answer)
    taken = sum(r["staked"] - r["returned"] for r in answer["bets"].values())
    assert 0 <= taken <= sum(r["staked"] for r in answer["bets"].values()) * 5 // 100 + len(answer["bets"])


def test_one_table_at_a_time_and_bets_are_the_servers(make_casino: Any, sqlite_url: str) -> None:
    """A player may not sit at two circle tables (003:4261-4263); the forced bets are posted by the server,
    not by a player's bet request; the lobby lists free seats."""
    other = {**TABLE, "id": "q", "name": "Omaha", "game": "omaha"}
    c = make_casino([TABLE, other], sqlite_url, players=PLAYERS)
    c.post("ana", "/api/tables/p/seats", {"seat": 2, "buy_in": 5_000})
    refused = c.post("ana", "/api/tables/q/seats", {"seat": 2, "buy_in": 5_000}, expect=409)["error"]
    assert refused["code"] == "already-seated" and refused["source"] == "003:4261-4263"
    assert c.bet("ana", "p", {"kind": "hand", "amount": 100}, expect=409)["error"]["code"] == "wrong-phase"
    assert c.balance("ana") == 95_000
    lobby = c.client.get("/?lang=en").text
    row = re.search(r'<tr data-table="p">(.*?)</tr>', lobby, re.S)
    assert row and re.search(r"<td[^>]*>9</td>", row.group(1))             # nine of the ten seats free


def test_configured_seats_are_a_demo_buy_in(make_casino: Any, sqlite_url: str) -> None:
    """`table.seats` in the casino file seats those players at the first start, each buying in from his wallet;
    a seat the wallet cannot pay for is skipped."""
    demo = {**TABLE, "table": {**TABLE["table"], "seats": [{"seat": 4, "player": "ana", "stack": 6_000},
                                                           {"seat": 7, "player": "pepe", "stack": 8_000}]}}
    c = make_casino([demo], sqlite_url, players=PLAYERS)
    assert stacks(c) == {"ana": 6_000} and c.balance("ana") == 94_000 and c.balance("pepe") == 5_000
    assert "seats" not in c.get(None, "/api/tables")["tables"][0]["limits"]
    c.ledger()


def test_sintetico_baleares_deals_to_four_players_at_least(make_casino: Any, sqlite_url: str) -> None:
    """000:1491 (docs/rulings.md#minimum-player-counts): sintético in Baleares starts only with four players at the
    table; with three the table waits, with four the hand is dealt."""
    table = {"id": "p", "name": "Sintético", "game": "poker-sintetico", "jurisdiction": "ES-IB", "auto": False,
             "table": {"minimum": 200}}
    c = make_casino([table], sqlite_url, players=PLAYERS)
    for seat, player in enumerate(("ana", "luis", "eva"), start=1):
        c.post(player, "/api/tables/p/seats", {"seat": seat, "buy_in": 5_000})
    waiting = c.post("croupier", "/api/tables/p/open", key=None)
    assert "4 seated players" in waiting["waiting"] and waiting["seated"] == 3
    c.post("pepe", "/api/tables/p/seats", {"seat": 4, "buy_in": 5_000})
    assert c.post("croupier", "/api/tables/p/open", key=None)["phase"] == "acting"


def test_rebuy_between_hands_within_the_table_bounds(make_casino: Any, sqlite_url: str) -> None:
    """000:1483-1487 (docs/rulings.md#circle-server-rebuy-and-sit-out): a seated player rebuys from his wallet
    between hands, 5 to 100 times the table's bet in Baleares' sintético; the money is conserved."""
    table = {"id": "p", "name": "Sintético", "game": "poker-sintetico", "jurisdiction": "ES-IB", "auto": False,
             "table": {"minimum": 200}}
    c = make_casino([table], sqlite_url, players=PLAYERS)
    c.post("ana", "/api/tables/p/seats", {"seat": 1, "buy_in": 5_000})
    assert c.post("ana", "/api/tables/p/seats/rebuy", {"amount": 999}, expect=422)["error"]["code"] == "under-minimum"
    assert c.post("ana", "/api/tables/p/seats/rebuy", {"amount": 20_001}, expect=422)["error"]["code"] == "over-maximum"
    assert c.post("luis", "/api/tables/p/seats/rebuy", {"amount": 1_000}, expect=409)["error"]["code"] == "not-seated"
    done = c.post("ana", "/api/tables/p/seats/rebuy", {"amount": 1_000})
    assert done["stack"] == 6_000 and c.balance("ana") == 94_000 and stacks(c) == {"ana": 6_000}


def test_rest_two_hands_then_the_seat_is_free(casino: Any) -> None:
    """003:4209-4214: a player may rest two hands without losing his seat; at the third, if he has not come
    back, the seat is free and his stack goes back to his wallet. A player who comes back is dealt in."""
    c = casino
    for seat, player in ((1, "ana"), (3, "luis"), (5, "eva")):
        c.post(player, "/api/tables/p/seats", {"seat": seat, "buy_in": 10_000})
    assert c.post("eva", "/api/tables/p/seats/rest", {"rest": True})["resting"] is True
    for _ in range(2):
        play_hand(c, passive)
        assert "eva" in stacks(c) and stacks(c)["eva"] == 10_000
    answer = c.post("croupier", "/api/tables/p/open", key=None)       # the third hand: eva's seat is free
    assert "eva" not in stacks(c) and c.balance("eva") == 30_000
    assert answer["phase"] == "acting" and "eva" not in set(owners(c).values())


def test_a_resting_player_who_comes_back_is_dealt_in(casino: Any) -> None:
    c = casino
    for seat, player in ((1, "ana"), (3, "luis"), (5, "eva")):
        c.post(player, "/api/tables/p/seats", {"seat": seat, "buy_in": 10_000})
    c.post("eva", "/api/tables/p/seats/rest", {"rest": True})
    play_hand(c, passive)
    c.post("eva", "/api/tables/p/seats/rest", {"rest": False})
    c.post("croupier", "/api/tables/p/open", key=None)
    assert "eva" in set(owners(c).values())
