"""Limit changes across empty rounds, voided rounds and restarts: the table never stops taking bets.

The found fault: after a chief's limit change (announced, in force after three spins: 000:176; 003:362-367) an
electronic round without bets closed the engine's state (no va más) without a spin to reopen it, and the server
carried that closed state to every later round: `409 bet-closed` for good, even after a restart.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

ELECTRONIC = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}
AUTO = {**ELECTRONIC, "id": "auto", "auto": True, "timing": {"bets": 0, "spin": 0, "pause": 0}}
LIVE = {"id": "vivo", "game": "roulette-french", "jurisdiction": "ES-IB", "source": "croupier", "auto": False,
        "table": {"minimum": 100}}


def restart(make_casino: Any, c: Any, table: dict[str, Any], url: str) -> Any:
    """Stop this process (its ownership of the table goes) and start another on the same database."""
    c.client.__exit__(None, None, None)
    c.client.__enter__ = c.client.__exit__ = lambda *a: None      # the fixture's teardown: already closed
    return owning(make_casino([table], url), table)


def owning(c: Any, table: dict[str, Any]) -> Any:
    """Wait until this process owns the table (PostgreSQL: its advisory lock, taken in the background, with
    the recovery that may void the round in progress)."""
    owner = c.client.app.state.server.ownership
    end = time.monotonic() + 20
    while table["id"] not in owner.owned and time.monotonic() < end:
        time.sleep(0.05)
    assert table["id"] in owner.owned
    return c


def spin_round(c: Any, table: str, bet: int | None = None) -> None:
    """One electronic round driven by the croupier: open, an optional bet, no va más, the draw."""
    c.post("croupier", f"/api/tables/{table}/open", key=None)
    if bet is not None:
        c.bet("ana", table, {"kind": "red", "amount": bet})
    closed = c.post("croupier", f"/api/tables/{table}/close")
    if closed["phase"] == "closed":
        c.post("croupier", f"/api/tables/{table}/draw")


def test_empty_round_after_a_limit_change_keeps_the_table_open(make_casino: Any, database_url: str) -> None:
    c = make_casino([ELECTRONIC], database_url)
    c.post("jefe", "/api/tables/ruleta/limits", {"values": {"minimum": 200}})
    spin_round(c, "ruleta")                                      # nobody bets: the wheel does not spin
    spin_round(c, "ruleta")
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    assert c.get("ana", "/api/tables/ruleta")["phase"] == "betting"
    c.bet("ana", "ruleta", {"kind": "straight", "on": [5], "amount": 100})   # the old limit: three spins to go
    c.post("croupier", "/api/tables/ruleta/close")
    c.post("croupier", "/api/tables/ruleta/draw")
    spin_round(c, "ruleta", bet=500)
    spin_round(c, "ruleta", bet=500)
    assert c.get(None, "/api/tables")["tables"][0]["limits"]["minimum"] == 200    # three spins with the wheel turning
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    assert c.bet("ana", "ruleta", {"kind": "straight", "on": [5], "amount": 100}, expect=422)["error"]["code"] == "under-minimum"
    c.bet("ana", "ruleta", {"kind": "straight", "on": [5], "amount": 200})
    c.ledger()


def test_auto_table_takes_bets_after_empty_rounds(make_casino: Any, database_url: str) -> None:
    c = make_casino([AUTO], database_url)
    service = c.client.app.state.server.service
    c.post("jefe", "/api/tables/auto/limits", {"values": {"minimum": 200}})
    for _ in range(6):                      # open, no va más with nobody betting, pause: the clock's steps
        service.advance("auto")
    assert c.get("ana", "/api/tables/auto")["phase"] in ("betting", "settled")
    while c.get("ana", "/api/tables/auto")["phase"] != "betting":
        service.advance("auto")
    c.bet("ana", "auto", {"kind": "red", "amount": 500})
    c.ledger()


def test_restart_after_an_empty_round_still_takes_bets(make_casino: Any, database_url: str) -> None:
    c = make_casino([ELECTRONIC], database_url)
    c.post("jefe", "/api/tables/ruleta/limits", {"values": {"minimum": 200}})
    spin_round(c, "ruleta")
    again = restart(make_casino, c, ELECTRONIC, database_url)
    again.post("croupier", "/api/tables/ruleta/open", key=None)
    again.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    again.ledger()


def test_voided_empty_round_at_a_live_table_keeps_it_open(make_casino: Any, database_url: str) -> None:
    c = make_casino([LIVE], database_url)
    c.post("jefe", "/api/tables/vivo/limits", {"values": {"minimum": 200}})
    c.post("croupier", "/api/tables/vivo/open", key=None)
    c.post("croupier", "/api/tables/vivo/close")
    c.post("jefe", "/api/tables/vivo/void", {"reason": "ball-out"})     # annulled: nothing rides, nothing relaunched
    c.post("croupier", "/api/tables/vivo/open", key=None)
    c.bet("ana", "vivo", {"kind": "red", "amount": 500})
    c.post("croupier", "/api/tables/vivo/outcome", {"value": 1})
    c.post("croupier", "/api/tables/vivo/confirm")
    assert c.balance("ana") == 100_500
    c.ledger()


@pytest.mark.parametrize("phase", ["betting", "closed"])
def test_restart_voiding_the_round_keeps_the_table_open(make_casino: Any, database_url: str, phase: str) -> None:
    table = {**ELECTRONIC, "recovery": "void"}
    c = owning(make_casino([table], database_url), table)
    c.post("jefe", "/api/tables/ruleta/limits", {"values": {"minimum": 200}})
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    if phase == "closed":
        c.post("croupier", "/api/tables/ruleta/close")
    again = restart(make_casino, c, table, database_url)     # the restart voids the round: the stake comes back
    assert again.balance("ana") == 100_000
    again.post("croupier", "/api/tables/ruleta/open", key=None)
    again.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    again.post("croupier", "/api/tables/ruleta/close")
    again.post("croupier", "/api/tables/ruleta/draw")
    again.ledger()


def test_a_table_stopped_by_an_older_version_opens_again(make_casino: Any, database_url: str) -> None:
    """The database of an older version holds the stuck state (closed, carried for an announced change): the
    next round opens it afresh with the change announced again."""
    from tapete.engine.events import Close

    c = make_casino([ELECTRONIC], database_url)
    c.post("jefe", "/api/tables/ruleta/limits", {"values": {"minimum": 200}})
    service = c.client.app.state.server.service

    def stuck(ctx: Any) -> None:
        ctx.state = ctx.game.step(ctx.state, Close())
        ctx.state_changed = True

    service.run("ruleta", None, stuck)
    service.forget("ruleta")
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "straight", "on": [3], "amount": 100})     # the old limit, three spins to go
    c.post("croupier", "/api/tables/ruleta/close")
    c.post("croupier", "/api/tables/ruleta/draw")
    c.ledger()


def test_card_table_takes_bets_after_empty_coups_and_a_limit_change(make_casino: Any, database_url: str) -> None:
    table = {"id": "bj", "game": "blackjack", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 500}}
    c = make_casino([table], database_url)
    c.post("jefe", "/api/tables/bj/limits", {"values": {"minimum": 1000}})
    for _ in range(2):                                     # nobody bets: no coup is dealt
        c.post("croupier", "/api/tables/bj/open", key=None)
        assert c.post("croupier", "/api/tables/bj/close")["phase"] == "settled"
    c.post("croupier", "/api/tables/bj/open", key=None)
    c.bet("ana", "bj", {"kind": "main", "amount": 500, "extra": {"box": 1}})    # the old minimum: three coups to go
    c.ledger()
