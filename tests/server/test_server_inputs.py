"""Inputs a security review refuses (issue 17, 9 and 10): money as JSON integers only, a keyed `true` is not 1,
limits inside what a table may count, passwords that are not guessable; and every staff action in the staff log."""

from __future__ import annotations

from typing import Any

import pytest

RULETA = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}
VIVO = {"id": "vivo", "game": "roulette-french", "jurisdiction": "ES-IB", "source": "croupier", "auto": False,
        "table": {"minimum": 100}}
NOT_INTEGERS = ["100", " 100 ", "1_00", 100.0, 1e2, True]


@pytest.fixture
def casino(make_casino: Any, database_url: str) -> Any:
    c = make_casino([RULETA, VIVO], database_url, open_registration=True)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.post("croupier", "/api/tables/vivo/open", key=None)
    return c


def test_money_is_an_integer_of_cents_only(casino: Any) -> None:
    c = casino
    for amount in NOT_INTEGERS:
        for user, path, body in (("ana", "/api/tables/ruleta/bets", {"bets": [{"kind": "red", "amount": amount}]}),
                                 ("cajero", "/api/cashier/deposit", {"user": "ana", "amount": amount}),
                                 ("cajero", "/api/cashier/withdraw", {"user": "ana", "amount": amount}),
                                 ("cajero", "/api/tables/ruleta/float", {"amount": amount})):
            answer = c.post(user, path, body, expect=422)
            assert answer["error"]["code"] == "bad-request", (path, amount)
    assert c.balance("ana") == 100_000
    c.ledger()


def test_a_keyed_true_is_not_the_number_one(casino: Any) -> None:
    c = casino
    c.bet("ana", "vivo", {"kind": "straight", "on": [1], "amount": 100})
    for value in (True, [True], "1_0"):
        assert c.post("croupier", "/api/tables/vivo/outcome", {"value": value}, expect=422)["error"]["code"] != "forbidden"
    assert c.get("ana", "/api/tables/vivo")["phase"] == "betting"


def test_limits_are_validated_like_the_configuration(casino: Any) -> None:
    c = casino
    for values in ({"minimum": 10**30}, {"minimum": True}, {"minimum": "200"}, {"minimum": -5}, {"allow-zero-splits": 1}):
        answer = c.post("jefe", "/api/tables/vivo/limits", {"values": values}, expect=None)
        assert answer["error"]["code"] in ("bad-table", "bad-request"), (values, answer)
    from tapete.core.errors import TapeteError
    from tapete.server.config import CasinoConfig, validate

    with pytest.raises(TapeteError, match="out of range"):
        validate(CasinoConfig.model_validate({"tables": [{**VIVO, "table": {"minimum": 10**30}}]}))


@pytest.mark.parametrize("password", ["ana", "short-pw", "password1234", "qwertyuiop", "1234567890", "nuevo-nuevo"])
def test_weak_passwords_are_refused(casino: Any, password: str) -> None:
    r = casino.client.post("/api/register", json={"username": "nuevo", "password": password})
    assert r.status_code == 422 and r.json()["error"]["code"] in ("weak-password", "bad-request"), r.text
    answer = casino.post("cajero", "/api/users", {"username": "nuevo", "password": password}, key=None, expect=422)
    assert answer["error"]["code"] == "weak-password"
    assert casino.client.post("/api/register", json={"username": "nuevo", "password": "tapete-verde-1979",
                                                     "birth_date": "1990-01-01", "document": "00000000T"}).status_code == 200


def test_every_staff_action_is_in_the_staff_log(casino: Any) -> None:
    c = casino
    c.post("cajero", "/api/users", {"username": "nueva", "password": "a-long-new-password"}, key=None)
    c.post("cajero", "/api/cashier/deposit", {"user": "nueva", "amount": 500})
    c.post("cajero", "/api/cashier/withdraw", {"user": "nueva", "amount": 200})
    c.post("cajero", "/api/tables/ruleta/float", {"amount": 1000})
    c.post("jefe", "/api/tables/vivo/limits", {"values": {"minimum": 200}})
    c.bet("ana", "vivo", {"kind": "red", "amount": 500})
    c.post("croupier", "/api/tables/vivo/outcome", {"value": 3})
    c.post("jefe", "/api/tables/vivo/correct", {"value": 4, "reason": "keyed wrong"})
    c.post("jefe", "/api/tables/vivo/void", {"reason": "ball-out"})
    log = c.get("inspector", "/api/staff-log")
    assert log["chain"]["ok"]
    actions = [(r["actor"], r["action"], r["subject"]) for r in log["records"]]
    for expected in (("cajero", "account-created", "nueva"), ("cajero", "deposit", "nueva"), ("cajero", "withdraw", "nueva"),
                     ("cajero", "fill", "ruleta"), ("jefe", "limits", "vivo"), ("jefe", "correct", "vivo"),
                     ("jefe", "void", "vivo")):
        assert expected in actions
    server = c.client.app.state.server       # an edited record breaks the chain there
    from sqlalchemy import update

    from tapete.server.storage.db import staff_log

    with server.db.write() as conn:
        conn.execute(update(staff_log).where(staff_log.c.action == "deposit").values(data={"amount": 5}))
    assert c.get("inspector", "/api/staff-log")["chain"]["ok"] is False


def test_a_tampered_staff_log_tail_is_detected(casino: Any) -> None:
    """The staff log is checked against its stored head like a table's log: re-hashing the last record, or
    cutting it off, links up perfectly and only the head gives it away."""
    from sqlalchemy import delete, select, update

    from tapete.server.audit import staff_log as sl
    from tapete.server.storage.db import staff_log

    c = casino
    c.post("cajero", "/api/cashier/deposit", {"user": "ana", "amount": 500})
    c.post("cajero", "/api/cashier/withdraw", {"user": "ana", "amount": 200})
    log = c.get("inspector", "/api/staff-log")
    assert log["chain"]["ok"] and log["head"]["hash"] == log["records"][-1]["hash"]
    db = c.client.app.state.server.db
    with db.write() as conn:                 # rewrite the last record (a smaller withdrawal) and re-hash it
        last = dict(conn.execute(select(staff_log).order_by(staff_log.c.seq.desc()).limit(1)).mappings().one())
        data = {**last["data"], "amount": 1}
        forged = sl.record_hash(last["prev_hash"], last["seq"], last["ts"], last["actor"], last["action"], last["subject"], data)
        conn.execute(update(staff_log).where(staff_log.c.seq == last["seq"]).values(data=data, hash=forged))
    chain = c.get("inspector", "/api/staff-log")["chain"]
    assert not chain["ok"] and "stored head" in chain["reason"]
    with db.write() as conn:                 # cut the last record off
        conn.execute(delete(staff_log).where(staff_log.c.seq == last["seq"]))
    chain = c.get("inspector", "/api/staff-log")["chain"]
    assert not chain["ok"] and "stored head" in chain["reason"]
    with db.read() as conn:                  # what is left links up: only the head tells
        assert sl.verify(sl.rows(conn))["ok"]
