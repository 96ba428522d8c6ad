"""The player's care (issue 31, points 8 and 10): registration with identity, the limits a player sets, his
self-exclusion and the operator's excluded list — each enforced by the server, with the attacks a page alone would
not stop. On SQLite and PostgreSQL. Time is advanced through the care's clock (players/care.py `Clock`)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import PASSWORD  # type: ignore[import-not-found]

RULETA = {"id": "ruleta", "game": "roulette-french", "name": "Ruleta Uno", "jurisdiction": "ES-AN", "auto": False,
          "table": {"minimum": 100}}
DNI = "12345678Z"            # 12345678 mod 23 = 14 -> Z
NIE = "X1234567L"            # 01234567 mod 23 = 19 -> L
ADULT = "1990-05-17"
DAY = 24 * 3600.0


def casino(make_casino: Any, url: str, **security: Any) -> Any:
    return make_casino([RULETA], url, open_registration=True, register_attempts=50, **security)


def register(c: Any, username: str, document: str = DNI, birth: str = ADULT, password: str = PASSWORD, expect: int = 200) -> Any:
    r = c.client.post("/api/register", json={"username": username, "password": password, "birth_date": birth,
                                             "document": document})
    assert r.status_code == expect, r.text
    return r.json()


def login(c: Any, username: str, expect: int = 200) -> Any:
    r = c.client.post("/api/login", json={"username": username, "password": PASSWORD})
    assert r.status_code == expect, r.text
    if expect == 200:
        c.tokens[username] = {"Authorization": f"Bearer {r.json()['token']}"}
    return r.json()


def care(c: Any) -> Any:
    return c.client.app.state.server.care


def deposit(c: Any, user: str, amount: int, expect: int = 200) -> Any:
    return c.post("cajero", "/api/cashier/deposit", {"user": user, "amount": amount}, expect=expect)


def spin(c: Any) -> None:
    closed = c.post("croupier", "/api/tables/ruleta/close")
    if closed["phase"] == "closed":
        c.post("croupier", "/api/tables/ruleta/draw")
    c.post("croupier", "/api/tables/ruleta/open", key=None)


# -- registration ------------------------------------------------------------------------------------
def test_registration_checks_identity_and_says_which_field_is_wrong(make_casino: Any, database_url: str) -> None:
    c = casino(make_casino, database_url)
    wrong = register(c, "con espacio", expect=422)["error"]
    assert (wrong["field"], wrong["reason"], wrong["message"]) == ("username", "spaces", "a user name has no spaces")
    assert register(c, "nuevo", password="corta", expect=422)["error"]["field"] == "password"
    minor = register(c, "nuevo", birth="2015-01-01", expect=422)["error"]
    assert (minor["code"], minor["field"]) == ("under-age", "birth_date") and "18" in minor["message"]
    assert register(c, "nuevo", birth="17/05/1990", expect=422)["error"]["field"] == "birth_date"
    letter = register(c, "nuevo", document="12345678A", expect=422)["error"]
    assert (letter["code"], letter["field"]) == ("bad-document", "document") and "letter" in letter["message"]
    assert register(c, "nuevo", document="1234", expect=422)["error"]["field"] == "document"
    assert register(c, "nuevo", document="12.345.678-z")["user"] == "nuevo"          # the same DNI, written loosely
    assert register(c, "nieplayer", document=NIE)["user"] == "nieplayer"
    again = register(c, "otro-nombre", document="12345678z", expect=409)["error"]    # same person, another name
    assert (again["code"], again["field"]) == ("document-exists", "document")
    assert c.client.post("/api/login", json={"username": "otro-nombre", "password": PASSWORD}).status_code == 401
    assert register(c, "nuevo", document="00000000T", expect=409)["error"]["field"] == "username"


def test_the_age_is_counted_to_the_day() -> None:
    from datetime import date

    from tapete.server.players.identity import age_on

    assert age_on(date(2008, 11, 30), date(2026, 11, 29)) == 17
    assert age_on(date(2008, 11, 29), date(2026, 11, 29)) == 18


def test_dni_and_nie_letters_follow_the_official_table() -> None:
    from tapete.core.errors import TapeteError
    from tapete.server.players.identity import check_document

    assert check_document("00000000t") == "00000000T"
    assert check_document("Y2345678Z") == "Y2345678Z"       # Y -> 1: 12345678 mod 23 = 14 -> Z
    assert check_document("Z0000000M") == "Z0000000M"       # Z -> 2: 20000000 mod 23 = 5 -> M
    for bad in ("00000000R", "X1234567A", "W1234567L", "123456789", ""):
        with pytest.raises(TapeteError):
            check_document(bad)


def test_an_excluded_document_cannot_register_and_a_listed_player_cannot_log_in(make_casino: Any, database_url: str,
                                                                                   tmp_path: Path) -> None:
    from tapete.server.players import excluded

    c = casino(make_casino, database_url)
    register(c, "pepe", document=DNI)
    token = {"Authorization": f"Bearer {login(c, 'pepe')['token']}"}
    db = c.client.app.state.server.db
    excluded.load(db, excluded.parse(f"# RGIAJ extract\n{NIE}\n12345678-Z ; a note\n"), actor="operator")
    assert register(c, "pepa", document=NIE, expect=403)["error"]["code"] == "excluded"
    refused = login(c, "pepe", expect=403)["error"]
    assert refused["code"] == "excluded" and "excluded" in refused["message"]
    care(c).forget("pepe")
    assert c.client.get("/api/me", headers=token).status_code == 401                 # loading the list logged him out
    with pytest.raises(Exception, match="line 2 holds"):
        excluded.parse(f"{DNI}\n12345678A\n")
    excluded.load(db, [], actor="operator")                 # taken off the list: he logs in again
    login(c, "pepe")


# -- limits ------------------------------------------------------------------------------------------
def test_a_deposit_limit_lowers_at_once_and_rises_after_the_cooling_off(make_casino: Any, database_url: str) -> None:
    c = casino(make_casino, database_url)          # ana's 1,000 € of chips were deposited when she was created
    assert c.post("ana", "/api/me/limits", {"kind": "deposit", "value": 1050_00}, key=None)["limits"]["deposit"]["value"] == 1050_00
    deposit(c, "ana", 30_00)
    refused = deposit(c, "ana", 30_00, expect=409)["error"]
    assert refused["code"] == "deposit-limit" and "20.00 €" in refused["message"]
    raised = c.post("ana", "/api/me/limits", {"kind": "deposit", "value": 1500_00}, key=None)["limits"]["deposit"]
    assert raised["value"] == 1050_00 and raised["pending"]["value"] == 1500_00      # the old one still counts
    assert deposit(c, "ana", 30_00, expect=409)["error"]["code"] == "deposit-limit"  # raise-and-deposit at once: no
    care(c).clock.advance(DAY + 1)
    deposit(c, "ana", 300_00)
    assert deposit(c, "ana", 200_00, expect=409)["error"]["code"] == "deposit-limit"
    c.post("ana", "/api/me/limits", {"kind": "deposit", "value": 10_00}, key=None)   # lowered: at once
    assert deposit(c, "ana", 1_00, expect=409)["error"]["code"] == "deposit-limit"
    c.post("ana", "/api/me/limits", {"kind": "deposit", "value": None}, key=None)     # removed: after the delay too
    assert deposit(c, "ana", 1_00, expect=409)["error"]["code"] == "deposit-limit"
    care(c).clock.advance(DAY + 1)
    deposit(c, "ana", 2000_00)
    deposit(c, "luis", 5000_00)                                                       # nobody else is limited
    c.ledger()


@pytest.mark.parametrize("path", ["/api/tables/ruleta/bets", "/api/tables/ruleta/bets?via=endpoint"])
def test_a_loss_limit_refuses_the_bet_that_could_pass_it(make_casino: Any, database_url: str, path: str) -> None:
    """Both doors of a bet: the lane (a plain bearer request) and the endpoint (a query string sends it there)."""
    c = casino(make_casino, database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.post("ana", "/api/me/limits", {"kind": "loss", "value": 10_00}, key=None)

    def bet(amount: int, expect: int = 200) -> Any:
        return c.post("ana", path, {"bets": [{"kind": "red", "amount": amount}]}, expect=expect)

    bet(6_00)
    refused = bet(5_00, expect=409)["error"]
    assert refused["code"] == "loss-limit" and "4.00 €" in refused["message"] and "10.00 €" in refused["message"]
    c.post("ana", "/api/me/limits", {"kind": "loss", "value": 1000_00}, key=None)       # raise, and bet at once
    assert bet(5_00, expect=409)["error"]["code"] == "loss-limit"
    bet(4_00)
    assert c.balance("luis") == 1000_00
    c.bet("luis", "ruleta", {"kind": "red", "amount": 500_00})                         # nobody else is limited
    care(c).clock.advance(DAY + 1)                                                      # the raise counts
    bet(50_00)
    c.ledger()


def test_bets_sent_together_cannot_pass_a_loss_limit_together(make_casino: Any, database_url: str) -> None:
    import concurrent.futures

    c = casino(make_casino, database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.post("ana", "/api/me/limits", {"kind": "loss", "value": 10_00}, key=None)
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: c.bet("ana", "ruleta", {"kind": "red", "amount": 4_00}, expect=None), range(6)))
    placed = [a for a in answers if "error" not in a]
    assert len(placed) == 2 and {a["error"]["code"] for a in answers if "error" in a} == {"loss-limit"}


def test_a_session_limit_stops_the_bets_when_the_time_is_up(make_casino: Any, database_url: str) -> None:
    c = casino(make_casino, database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.post("ana", "/api/me/limits", {"kind": "session", "value": 30}, key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 1_00})
    care(c).clock.advance(31 * 60)
    care(c).forget("ana")
    refused = c.bet("ana", "ruleta", {"kind": "red", "amount": 1_00}, expect=409)["error"]
    assert refused["code"] == "session-limit" and "30 minutes" in refused["message"]
    session = c.get("ana", "/api/me/care")["session"]
    assert session["minutes"] >= 31 and session["net"] <= 0
    c.tokens.pop("ana")
    login(c, "ana")                                                      # a new login: a new session
    c.bet("ana", "ruleta", {"kind": "red", "amount": 1_00})


def test_a_player_with_nothing_set_costs_the_bet_path_no_query(make_casino: Any, database_url: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The lane's hot path: the players with something to check are read in one query for all (every CACHE_S);
    a player who set nothing is never looked up one by one."""
    c = casino(make_casino, database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.post("luis", "/api/me/limits", {"kind": "loss", "value": 100_00}, key=None)
    calls = {"state": [], "flagged": 0}
    state, flagged = care(c).state, care(c).flagged
    monkeypatch.setattr(care(c), "state", lambda u: calls["state"].append(u) or state(u))
    monkeypatch.setattr(care(c), "flagged", lambda: calls.__setitem__("flagged", calls["flagged"] + 1) or flagged())
    for _ in range(5):
        c.bet("ana", "ruleta", {"kind": "red", "amount": 1_00})
    c.bet("luis", "ruleta", {"kind": "red", "amount": 1_00})
    assert "ana" not in calls["state"] and calls["flagged"] <= 2 and "luis" in care(c).flagged()


# -- self-exclusion ----------------------------------------------------------------------------------
def test_self_exclusion_is_honoured_at_login_tables_and_cage_and_cannot_be_shortened(make_casino: Any,
                                                                                      database_url: str) -> None:
    c = casino(make_casino, database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    old = c.login("ana")
    out = c.post("ana", "/api/me/exclusion", {"days": 30, "confirm": True}, key=None)
    assert out["excluded"] and out["excluded_until"]
    assert c.client.get("/api/me", headers=old).status_code == 401                     # logged out everywhere
    refused = login(c, "ana", expect=403)["error"]
    assert refused["code"] == "self-excluded" and out["excluded_until"] in refused["message"]
    assert deposit(c, "ana", 10_00, expect=403)["error"]["code"] == "self-excluded"
    c.post("cajero", "/api/cashier/withdraw", {"user": "ana", "amount": 10_00})         # his money goes out
    care(c).clock.advance(10 * DAY)
    login(c, "ana", expect=403)
    care(c).clock.advance(21 * DAY)
    login(c, "ana")
    c.post("ana", "/api/me/exclusion", {"days": 60, "confirm": True}, key=None)
    # a second exclusion asked for fewer days never shortens the first (the player is logged out: set directly)
    assert care(c).exclude("ana", 1)["excluded_until"] == care(c).summary("ana")["excluded_until"]
    care(c).clock.advance(2 * DAY)
    login(c, "ana", expect=403)
    care(c).exclude("ana", None)                                                         # for good
    care(c).clock.advance(3650 * DAY)
    assert login(c, "ana", expect=403)["error"]["message"].endswith("for good")
    c.ledger()


def test_an_excluded_players_cached_session_cannot_bet(make_casino: Any, database_url: str) -> None:
    """The exclusion written by another process (here: directly), the session still in this one's cache: the bet
    is refused once the care's cache expires, and at once where this process made the change."""
    c = casino(make_casino, database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 1_00})
    care(c).exclude("ana", 7)
    assert c.bet("ana", "ruleta", {"kind": "red", "amount": 1_00}, expect=None)["error"]["code"] in ("self-excluded",
                                                                                                   "unauthenticated")


def test_staff_have_no_limits_and_the_forms_need_confirmation(make_casino: Any, database_url: str) -> None:
    c = casino(make_casino, database_url)
    assert c.post("cajero", "/api/me/limits", {"kind": "loss", "value": 100}, key=None, expect=403)
    assert c.post("ana", "/api/me/exclusion", {"days": 30}, key=None, expect=422)
    assert c.post("ana", "/api/me/limits", {"kind": "loss", "value": 0}, key=None, expect=422)


# -- the player's record -----------------------------------------------------------------------------
def test_the_statement_and_rounds_name_tables_and_the_seed_matches_its_commitment(make_casino: Any, database_url: str,
                                                                                   tmp_path: Path) -> None:
    c = casino(make_casino, database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 5_00})
    spin(c)
    statement = c.get("ana", "/api/me/statement")
    kinds = [m["what"] for m in statement["movements"]]
    assert "stake" in kinds and "deposit" in kinds and statement["balance"] == c.balance("ana")
    stake = next(m for m in statement["movements"] if m["what"] == "stake")
    assert stake["table"] == "Ruleta Uno" and stake["amount"] == -5_00 and stake["round"] == 1
    assert "ruleta:" not in str(statement) and "wallet:" not in str(statement)
    rounds = c.get("ana", "/api/me/rounds")["rounds"]
    assert len(rounds) == 1 and rounds[0]["table"] == "Ruleta Uno" and rounds[0]["staked"] == 5_00
    record = c.get("ana", f"/api/rounds/{rounds[0]['id']}")
    assert hashlib.sha256(bytes.fromhex(record["seed"])).hexdigest() == rounds[0]["commitment"] == record["commitment"]
    saved = tmp_path / "round-1.json"                # what the page's download link saves: `tapete verify` replays it
    saved.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "tapete.cli", "verify", str(saved)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert c.get("luis", "/api/me/rounds")["rounds"] == []
    assert c.get("cajero", "/api/me/statement", expect=403)


# -- the casino file ---------------------------------------------------------------------------------
def test_config_check_validates_the_cooling_off(tmp_path: Path) -> None:
    bad = tmp_path / "casino.toml"
    bad.write_text('[players]\nraise_delay_h = 1\nreality_check_min = 2\n')
    run = subprocess.run([sys.executable, "-m", "tapete.cli", "config", "check", str(bad)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode != 0 and "players.raise_delay_h" in run.stdout + run.stderr
    assert "players.reality_check_min" in run.stdout + run.stderr
    good = tmp_path / "good.toml"
    good.write_text('[players]\nraise_delay_h = 72\nhelp_url = "https://www.jugarbien.es/"\n')
    assert subprocess.run([sys.executable, "-m", "tapete.cli", "config", "check", str(good)], capture_output=True,
                          timeout=120).returncode == 0


def test_the_excluded_command_loads_the_list(tmp_path: Path) -> None:
    from tapete.server.storage.db import Database

    url = f"sqlite:///{tmp_path / 'c.db'}"
    db = Database(url)
    db.ensure_schema()
    db.dispose()
    listed = tmp_path / "rgiaj.csv"
    listed.write_text(f"document,name\n{DNI},x\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "tapete.cli", "excluded", "load", str(listed), "--database", url],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "line 1 holds" in run.stderr          # the header line is no document: nothing loaded
    listed.write_text(f"# from the RGIAJ\n{DNI},x\n{NIE}\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "tapete.cli", "excluded", "load", str(listed), "--database", url],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("2 documents"), run.stderr


def test_requests_that_find_the_flagged_list_stale_share_one_read(make_casino: Any, sqlite_url: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: every request that found the list of flagged players stale started its own read in a worker
    thread while the first was under way; now they wait for that one (and one cancelled leaves it to the rest)."""
    import asyncio
    import threading

    c = casino(make_casino, sqlite_url)
    gate, calls = threading.Event(), [0]
    flagged = care(c).flagged

    def slow() -> frozenset[str]:
        calls[0] += 1
        gate.wait(5)
        return flagged()

    monkeypatch.setattr(care(c), "flagged", slow)

    async def place(*args: Any) -> str:
        return "placed"

    async def many() -> list[Any]:
        care(c)._flagged_at = -1e9                                   # stale
        waiting = [asyncio.create_task(care(c).bet("ruleta", "ana", [], None, place)) for _ in range(20)]
        await asyncio.sleep(0.05)
        waiting[0].cancel()
        gate.set()
        return await asyncio.gather(*waiting, return_exceptions=True)

    answers = asyncio.run(many())
    assert calls[0] == 1
    assert isinstance(answers[0], asyncio.CancelledError) and answers[1:] == ["placed"] * 19
    assert care(c)._refreshing == {}
