"""Who sees what (issue 26, items 3 and 7; docs/server.md § Who sees what): one rule for the view, the stream
and the round records.

Item 3, the found leak: at a live chemin de fer table the cards the croupier keys went, in the `deal` record,
to every watcher of the stream: the banker read the punto's face-down cards while `GET /view` showed `??`
(and at every live card table the keyed cards not dealt yet: the coup's future). The rule tested here for
every card game: **a watcher who is not the table's staff receives, on the stream, no card that his own
`GET /view` does not show him at that moment** (the view as of after the record: it shows at least as much).

Item 7: other players' logins never reach a player or a visitor (the anonymous pages, `/actions`' `holder`,
error messages), and display names are applied to the fields that name a player only: a player called "red"
leaves everybody's red bets red.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

CARD = re.compile(r"^(?:(?:[2-9TJQKA]|1[0-2]|[1-9])[SHDCoceb]|X[1-9])$")      # a card as the engine writes it (Pai Gow: joker X1)
PLAYERS = {"ana": 200_000, "luis": 100_000, "eva": 100_000, "red": 100_000}


def cards_in(doc: Any) -> set[str]:
    """Every card named anywhere in a document (a string that is a card, as the engine writes them)."""
    if isinstance(doc, dict):
        return set().union(*(cards_in(v) for v in doc.values())) if doc else set()
    if isinstance(doc, list):
        return set().union(*(cards_in(v) for v in doc)) if doc else set()
    return {doc} if isinstance(doc, str) and CARD.match(doc) else set()


class Watch:
    """A WebSocket watcher of a table, as one user; `sync` reads every record up to the table's log head."""

    def __init__(self, c: Any, user: str, table: str) -> None:
        self.c, self.user, self.table = c, user, table
        token = c.login(user)["Authorization"].split()[1]
        self.cm = c.client.websocket_connect(f"/api/tables/{table}/stream?token={token}")
        self.ws = self.cm.__enter__()
        self.seen: list[Any] = [self.ws.receive_json()]
        self.last = self.seen[0]["seq"]

    def sync(self) -> list[Any]:
        head = self.c.get("inspector", f"/api/tables/{self.table}/log?limit=1")["head"]["seq"]
        while self.last < head:
            msg = self.ws.receive_json()
            self.seen.append(msg)
            self.last = msg.get("seq", self.last)
        return self.seen

    def close(self) -> None:
        self.cm.__exit__(None, None, None)


def view_cards(c: Any, user: str, table: str) -> set[str]:
    shown = c.get(user, f"/api/tables/{table}/view?recent=1")
    return cards_in(shown["state"]) | cards_in(shown["recent"])


def check(watchers: list[Watch]) -> None:
    """No watcher has received a card his view does not show him now."""
    for w in watchers:
        received = cards_in(w.sync())
        leaked = received - view_cards(w.c, w.user, w.table)
        assert not leaked, f"{w.user} received {sorted(leaked)} on the stream of {w.table}, not on his view"


@pytest.fixture
def watching(make_casino: Any) -> Any:
    """watching(c, table, *users) -> a Watch per user, closed at teardown (before the casino: a failed test
    must not leave its streams open)."""
    opened: list[Watch] = []

    def open_(c: Any, table: str, *users: str) -> list[Watch]:
        found = [Watch(c, u, table) for u in users]
        opened.extend(found)
        return found

    yield open_
    for w in opened:
        w.close()


def live(game: str, minimum: int, jurisdiction: str = "ES", source: str = "croupier") -> dict[str, Any]:
    return {"id": "t", "game": game, "jurisdiction": jurisdiction, "source": source, "auto": False,
            "table": {"minimum": minimum}}


def decide(c: Any, answer: dict[str, Any], owner: dict[str, str], watchers: list[Watch], table: str = "t") -> dict[str, Any]:
    """Every decision due, by the player it is due to (a bet's owner, a hand's holder), checking the watchers
    after each."""
    for _ in range(30):
        if answer["phase"] != "acting":
            break
        due = answer["due"][0]
        if due.get("bet") is not None:
            player = owner[due["bet"]]
        else:
            player = next(d["holder"] for d in c.get("croupier", f"/api/tables/{table}/actions")["decisions"]
                          if d.get("by") == due["by"])
        body = {k: v for k, v in due.items() if k in ("do", "bet", "by")}
        answer = c.post(player, f"/api/tables/{table}/acts", body)
        check(watchers)
    return answer


# -- item 3: cards on the stream -----------------------------------------------------------------------------------
def test_chemin_de_fer_keyed_cards_never_reach_the_banker(watching: Any, make_casino: Any, database_url: str) -> None:
    """The found leak: the punto's two cards, face down, in the `deal` record to the banker (and to everyone)."""
    c = make_casino([live("chemin-de-fer", 1000)], database_url, players=PLAYERS)
    watchers = watching(c, "t", "ana", "eva", "cajero", "croupier")
    c.post("croupier", "/api/tables/t/open", key=None)
    c.bet("ana", "t", {"kind": "bank", "amount": 20_000, "extra": {"seat": 1}})
    stake = c.bet("luis", "t", {"kind": "player", "amount": 5000, "extra": {"seat": 2}})["bets"][0]["id"]
    # punto 2♦ 3♣ = 5 (his to decide), bank 4♠ 2♥; the 10♣ and the 9♠ wait in the croupier's hand
    answer = c.post("croupier", "/api/tables/t/close", {"cards": ["2D", "4S", "3C", "2H", "TC", "9S"]})
    assert answer["phase"] == "acting"
    punto = c.get("ana", "/api/tables/t/view")["state"]["current"]["punto"]["cards"]
    assert punto == ["??", "??"]                                     # the banker's view: face down
    check(watchers[:3])
    croupier = json.dumps(watchers[3].sync())
    assert '"2D"' in croupier and '"TC"' in croupier                 # the staff who keyed them see them
    decide(c, answer, {stake: "luis"}, watchers[:3])


def test_dos_panos_keyed_cards_never_reach_the_players(watching: Any, make_casino: Any, database_url: str) -> None:
    c = make_casino([live("baccarat-two-tables", 1000)], database_url, players=PLAYERS)
    watchers = watching(c, "t", "ana", "luis", "eva")
    c.post("croupier", "/api/tables/t/open", key=None)
    c.bet("luis", "t", {"kind": "bank", "amount": 50_000})
    stake = c.bet("ana", "t", {"kind": "player", "on": [1], "amount": 2000, "extra": {"seat": 3}})["bets"][0]["id"]
    answer = c.post("croupier", "/api/tables/t/close", {"cards": ["2D", "4S", "3C", "2H", "TC", "9S", "5H", "6H", "7H", "8C"]})
    check(watchers)
    decide(c, answer, {stake: "ana"}, watchers)
    check(watchers)


@pytest.mark.parametrize("game,minimum,bets,cards", [
    # punto 9♠ K♦ (9), banca 2♥ 5♣ (7): naturals, no third card: the 7♦ and 8♣ keyed are never dealt
    ("punto-banca", 1000, [("ana", {"kind": "player", "amount": 1000}), ("luis", {"kind": "banker", "amount": 1000})],
     ["9S", "2H", "KD", "5C", "7D", "8C"]),
    ("trente-quarante", 500, [("ana", {"kind": "red", "amount": 500}), ("luis", {"kind": "black", "amount": 500})],
     ["TS", "KH", "QD", "AC", "JS", "TH", "KC", "AD", "2C", "3C", "4C", "5C"]),
])
def test_face_up_games_keyed_cards_not_dealt_stay_secret(watching: Any, make_casino: Any, database_url: str, game: str, minimum: int,
                                                          bets: list[tuple[str, dict[str, Any]]], cards: list[str]) -> None:
    """Punto y banca, trente et quarante: every dealt card lies face up; a keyed card not dealt is the future."""
    c = make_casino([live(game, minimum)], database_url, players=PLAYERS)
    watchers = watching(c, "t", "ana", "eva")
    c.post("croupier", "/api/tables/t/open", key=None)
    owner = {c.bet(player, "t", bet)["bets"][0]["id"]: player for player, bet in bets}
    answer = c.post("croupier", "/api/tables/t/close", {"cards": cards})
    check(watchers)
    assert decide(c, answer, owner, watchers)["phase"] == "settled"


def test_blackjack_live_future_cards_and_hits(watching: Any, make_casino: Any, database_url: str) -> None:
    c = make_casino([live("blackjack", 500)], database_url, players=PLAYERS)
    watchers = watching(c, "t", "ana", "luis", "eva")
    c.post("croupier", "/api/tables/t/open", key=None)
    owner = {c.bet(p, "t", {"kind": "main", "amount": 1000, "extra": {"box": box}})["bets"][0]["id"]: p
             for p, box in (("ana", 1), ("luis", 3))}
    answer = c.post("croupier", "/api/tables/t/close", {"cards": ["8S", "KH", "6D", "8H", "9C", "TD", "7S", "5D", "9H", "2S"]})
    check(watchers)                                                  # the future cards: no watcher's
    decide(c, answer, owner, watchers)
    check(watchers)


@pytest.mark.parametrize("game", ["pai-gow", "tripoker", "trijoker", "poker-sin-descarte", "casino-monte"])
def test_banked_rng_games_stream_no_card_before_the_view(watching: Any, make_casino: Any, sqlite_url: str, game: str) -> None:
    """Banked poker and Monte at an electronic table: the stream never runs ahead of the view (Pai Gow's `set`
    names the player's seven cards: its record reaches him alone)."""
    c = make_casino([live(game, 500, "ES-AN", "rng")], sqlite_url, players=PLAYERS)
    watchers = watching(c, "t", "ana", "eva")
    c.post("croupier", "/api/tables/t/open", key=None)
    owner = {c.bet(p, "t", {"kind": "ante" if game in ("tripoker", "poker-sin-descarte") else "main", "amount": 500,
                            "extra": {"box": box}})["bets"][0]["id"]: p for p, box in (("luis", 1), ("ana", 2))}
    answer = c.post("croupier", "/api/tables/t/close")
    check(watchers)
    for _ in range(10):
        if answer["phase"] != "acting":
            break
        due = answer["due"][0]
        player = owner[due["bet"]]
        body = {"do": due["do"], "bet": due["bet"]}
        if due["do"] == "set":                                      # Pai Gow: the two hands as the house way sets them
            hand = c.get(player, "/api/tables/t/view")["state"]["round"]["hands"][str(2 if player == "ana" else 1)]
            body["fields"] = {"high": hand[2:], "low": hand[:2]}
        answer = c.post(player, "/api/tables/t/acts", body)
        check(watchers)


def test_circle_poker_hole_cards_never_on_the_stream(watching: Any, make_casino: Any, database_url: str) -> None:
    holdem = {"id": "p", "game": "holdem", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 200, "forced": "blinds"}}
    c = make_casino([holdem], database_url, players=PLAYERS)
    c.post("ana", "/api/tables/p/seats", {"seat": 1, "buy_in": 10_000})
    c.post("luis", "/api/tables/p/seats", {"seat": 3, "buy_in": 10_000})
    watchers = watching(c, "p", "ana", "luis", "eva", "croupier")
    answer = c.post("croupier", "/api/tables/p/open", key=None)
    owners = {b["id"]: b["player"] for b in c.get("croupier", "/api/tables/p")["open_bets"]}
    check(watchers)                                      # the croupier too: his view of the hand is a player's with none
    while answer["phase"] == "acting":
        player = owners[answer["due"][0]["bet"]]
        mine = [d for d in c.get(player, "/api/tables/p/actions")["decisions"] if d["mine"]]
        verbs = {d["do"] for d in mine}
        answer = c.post(player, "/api/tables/p/acts", {"bet": mine[0]["bet"], "do": next(v for v in ("call", "check", "show", "muck", "fold") if v in verbs)})
        check(watchers)


def test_round_record_coup_is_the_views(make_casino: Any, sqlite_url: str) -> None:
    """A round record's coup at a game with hole cards is what `GET /view` showed each viewer of it: a Pai Gow
    box's cards for its player (and the inspector), the croupier's for all once the coup is over."""
    c = make_casino([live("pai-gow", 500, "ES-AN", "rng")], sqlite_url, players=PLAYERS)
    c.post("croupier", "/api/tables/t/open", key=None)
    c.bet("luis", "t", {"kind": "main", "amount": 500, "extra": {"box": 1}})
    answer = c.post("croupier", "/api/tables/t/close")
    hand = c.get("luis", "/api/tables/t/view")["state"]["round"]["hands"]["1"]
    if answer["phase"] == "acting":
        answer = c.post("luis", "/api/tables/t/acts", {"do": "set", "bet": answer["due"][0]["bet"],
                                                    "fields": {"high": hand[2:], "low": hand[:2]}})
    rid = c.get("inspector", "/api/rounds?table=t")["rounds"][0]["id"]
    full = c.get("inspector", f"/api/rounds/{rid}")
    assert set(hand) <= cards_in(full["coup"])
    for user in ("ana", "cajero"):
        record = c.get(user, f"/api/rounds/{rid}")
        assert record["coup"] == c.get(user, "/api/tables/t/view")["recent"][0]
        assert not set(hand) & cards_in(record["coup"]) and not set(hand) & cards_in(record["events"])
    assert set(hand) <= cards_in(c.get("luis", f"/api/rounds/{rid}")["coup"])


# -- item 7: logins ------------------------------------------------------------------------------------------------
def test_anonymous_pages_name_no_player(make_casino: Any, sqlite_url: str) -> None:
    """The lobby and a table's page (no session) carried the summary as it was: the circle's seats and the
    player bank's holder by login."""
    holdem = {"id": "p", "game": "holdem", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 200, "forced": "blinds"}}
    c = make_casino([holdem, live("chemin-de-fer", 1000)], sqlite_url, players=PLAYERS)
    c.post("luis", "/api/tables/p/seats", {"seat": 3, "buy_in": 10_000})
    c.post("croupier", "/api/tables/t/open", key=None)
    c.bet("ana", "t", {"kind": "bank", "amount": 20_000, "extra": {"seat": 1}})
    for path in ("/", "/tables/p", "/tables/t", "/croupier/t"):
        html = c.client.get(path).text
        assert "Seat 3" in html or path in ("/", "/tables/t", "/croupier/t"), path
        assert not re.search(r"\b(luis|ana)\b", html), path
    assert "luis" not in json.dumps(c.get(None, "/api/tables"))


def test_actions_holder_by_display_name(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([live("chemin-de-fer", 1000)], sqlite_url, players=PLAYERS)
    c.post("croupier", "/api/tables/t/open", key=None)
    c.bet("ana", "t", {"kind": "bank", "amount": 20_000, "extra": {"seat": 1}})
    c.bet("luis", "t", {"kind": "player", "amount": 5000, "extra": {"seat": 2}})
    c.post("croupier", "/api/tables/t/close", {"cards": ["2D", "4S", "3C", "2H", "TC", "9S"]})
    seen = c.get("eva", "/api/tables/t/actions")["decisions"]
    assert seen and all(d.get("holder") != "luis" for d in seen) and "luis" not in json.dumps(seen)
    assert any(d.get("holder", "").startswith("Player ") for d in seen)
    assert any(d.get("holder") == "luis" for d in c.get("luis", "/api/tables/t/actions")["decisions"])      # his own
    assert any(d.get("holder") == "luis" for d in c.get("croupier", "/api/tables/t/actions")["decisions"])  # the staff
    # check_decider: a player acting for another's hand is refused without being told whose it is
    refused = c.post("eva", "/api/tables/t/acts", {"do": "draw", "by": "player"}, expect=403)
    assert "luis" not in json.dumps(refused)


def test_errors_name_no_other_player(make_casino: Any, sqlite_url: str) -> None:
    holdem = {"id": "p", "game": "holdem", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 200, "forced": "blinds"}}
    c = make_casino([holdem], sqlite_url, players=PLAYERS)
    c.post("ana", "/api/tables/p/seats", {"seat": 1, "buy_in": 10_000})
    taken = c.post("eva", "/api/tables/p/seats", {"seat": 1, "buy_in": 10_000}, expect=409)
    assert taken["error"]["code"] == "seat-taken" and "ana" not in json.dumps(taken)
    c.post("luis", "/api/tables/p/seats", {"seat": 3, "buy_in": 10_000})
    answer = c.post("croupier", "/api/tables/p/open", key=None)
    owners = {b["id"]: b["player"] for b in c.get("croupier", "/api/tables/p")["open_bets"]}
    due = owners[answer["due"][0]["bet"]]
    other = next(p for p in ("ana", "luis") if p != due)
    mine = next(b for b, p in owners.items() if p == other)
    refused = c.post(other, "/api/tables/p/acts", {"bet": mine, "do": "fold"}, expect=None)
    assert refused["error"]["code"] == "out-of-turn" and due not in json.dumps(refused)


def test_a_login_that_is_a_common_word_replaces_nothing(watching: Any, make_casino: Any, database_url: str) -> None:
    """A player called "red": ana's bet on red stays a bet on red in every document she and others read."""
    ruleta = {"id": "r", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}
    c = make_casino([ruleta], database_url, players=PLAYERS)
    watchers = watching(c, "r", "ana", "eva")
    c.post("croupier", "/api/tables/r/open", key=None)
    c.bet("ana", "r", {"kind": "red", "amount": 500})
    c.bet("red", "r", {"kind": "black", "amount": 500})
    c.post("croupier", "/api/tables/r/close")
    c.post("croupier", "/api/tables/r/draw")
    for w in watchers:
        bets = [m["data"]["event"]["bet"] for m in w.sync() if m.get("kind") == "bet"]
        assert sorted(b["kind"] for b in bets) == ["black", "red"], w.user
        assert "red" not in [b["player"] for b in bets]                         # his login never
        settled = next(m for m in w.seen if m.get("kind") == "settlement")["data"]["bets"]
        assert sorted(b["kind"] for b in settled.values()) == ["black", "red"]
    rid = c.get("ana", "/api/rounds?table=r")["rounds"][0]["id"]
    record = c.get("eva", f"/api/rounds/{rid}")
    assert sorted(e["bet"]["kind"] for e in record["events"] if "bet" in e) == ["black", "red"]
    assert not any(b.get("player") == "red" for b in record["settlement"]["bets"].values())
