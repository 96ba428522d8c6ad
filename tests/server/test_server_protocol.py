"""The table protocol (issue 26): every route and act consults its family's phase table before the engine is
touched; a refused act reveals no card; a shoe that runs out never leaves a table stuck; a live table its family
cannot deal is refused at load; the table log bounds its cursor; a player sits at one circle table at a time."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tapete.core.errors import TapeteError

BJ = {"id": "t", "game": "blackjack", "jurisdiction": "ES", "auto": False, "table": {"minimum": 500}}
PAI_GOW = {"id": "pg", "game": "pai-gow", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 500}}
TRIPOKER = {"id": "tp", "game": "tripoker", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 500}}
ROULETTE = {"id": "r", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}
LIVE_ROULETTE = {**ROULETTE, "id": "vivo", "jurisdiction": "ES-IB", "source": "croupier"}
CARD = re.compile(r"\b(?:[2-9TJQKA]|10)[SHDC]\b")


def dealt(c: Any, table: str) -> list[str]:
    """The cards the table's state has taken from its shoe (the server's side)."""
    from tapete.server.tables.shoes import dealt_cards

    server = c.client.app.state.server
    with server.db.read() as conn:
        _, state = server.service.state_of(conn, table)
    return dealt_cards(server.service.game(server.service.spec(table)), state) or []


PROBES = {   # table -> the acts a player might try before no va más
    "t": [{"do": "stand"}, {"do": "double"}, {"do": "split"}, {"do": "hit"}, {"do": "surrender"}, {"do": "insure"}],
    "pg": [{"do": "set", "fields": {"high": ["AS", "AH"], "low": ["2C", "3D", "4H", "5S", "6C"]}}] * 6,
    "tp": [{"do": "call"}, {"do": "fold"}] * 3,
}


@pytest.mark.parametrize("spec", [BJ, PAI_GOW, TRIPOKER], ids=lambda s: s["game"])
def test_acts_during_betting_are_refused_before_any_card(make_casino: Any, sqlite_url: str, spec: dict[str, Any]) -> None:
    """Item 1: 0 of N probes during the bets deal, play or name the next hand; the coup is dealt at no va más."""
    c = make_casino([spec], sqlite_url)
    t = spec["id"]
    c.post("croupier", f"/api/tables/{t}/open", key=None)
    bet = c.bet("ana", t, {"kind": {"t": "main", "pg": "main", "tp": "ante"}[t], "amount": 500, "extra": {"box": 1}})
    bet_id = bet["bets"][0]["id"]
    before = c.balance("ana")
    answers = [c.post("ana", f"/api/tables/{t}/acts", {"bet": bet_id, **probe}, expect=409) for probe in PROBES[t]]
    assert dealt(c, t) == [] and c.balance("ana") == before
    for answer in answers:
        error = answer["error"]
        assert error["code"] == "wrong-phase" and error["phase"] == "betting" and error["allowed"] == ["acting"], error
        assert "is refused" in error["message"] and not CARD.search(error["message"]), error
    answer = c.post("croupier", f"/api/tables/{t}/close")
    cards = dealt(c, t)
    assert cards, answer
    assert not any(card in str(a) for a in answers for card in cards)          # none named the coup's cards
    c.ledger()


def test_a_refused_act_outside_acting_never_moves_the_shoe(make_casino: Any, sqlite_url: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Belt and braces: were a phase table to admit an act during the bets, an act that would deal is refused
    without the engine's words (which name the cards) and without a card leaving the shoe."""
    from tapete.server.tables import adapters
    from tapete.server.tables.protocol import ANY_VERB, PhaseTable

    loose = PhaseTable.of(adapters.CARD_ROUTES, {ANY_VERB: ("betting", "acting")})
    monkeypatch.setattr(adapters.BlackjackAdapter, "phases", loose)
    c = make_casino([BJ], sqlite_url)
    c.post("croupier", "/api/tables/t/open", key=None)
    bet_id = c.bet("ana", "t", {"kind": "main", "amount": 500, "extra": {"box": 1}})["bets"][0]["id"]
    for verb in ("stand", "double"):
        error = c.post("ana", "/api/tables/t/acts", {"bet": bet_id, "do": verb}, expect=409)["error"]
        assert error["code"] == "wrong-phase" and error["phase"] == "betting" and not CARD.search(error["message"])
        assert "hand is" not in error["message"]
    assert dealt(c, "t") == []
    assert c.get("ana", "/api/tables/t")["phase"] == "betting"


def test_prison_is_refused_after_no_va_mas(make_casino: Any, sqlite_url: str) -> None:
    """Item 6: prison/half is decided between spins or while bets are open, never in `closed` or `confirming`."""
    c = make_casino([ROULETTE, LIVE_ROULETTE], sqlite_url)
    for table in ("r", "vivo"):
        c.post("croupier", f"/api/tables/{table}/open", key=None)
    held = c.bet("ana", "vivo", {"kind": "red", "amount": 1000})["bets"][0]["id"]
    c.post("croupier", "/api/tables/vivo/outcome", {"value": 0})
    assert c.post("croupier", "/api/tables/vivo/confirm")["pending"] == [held]     # in prison, decision due
    c.post("croupier", "/api/tables/vivo/open", key=None)
    c.bet("luis", "vivo", {"kind": "black", "amount": 1000})
    assert c.post("croupier", "/api/tables/vivo/close")["phase"] == "closed"          # no va más
    for phase in ("closed", "confirming"):
        if phase == "confirming":
            c.post("croupier", "/api/tables/vivo/outcome", {"value": 5})
        for do in ("prison", "half"):
            error = c.post("ana", "/api/tables/vivo/acts", {"bet": held, "do": do}, expect=409)["error"]
            assert error["code"] == "wrong-phase" and error["phase"] == phase, error
            assert error["allowed"] == ["idle", "betting", "settled"]
    bet = c.bet("ana", "r", {"kind": "red", "amount": 1000})["bets"][0]["id"]
    assert c.post("croupier", "/api/tables/r/close")["phase"] == "closed"
    error = c.post("ana", "/api/tables/r/acts", {"bet": bet, "do": "prison"}, expect=409)["error"]
    assert error["phase"] == "closed" and "no va más" in error["message"]


def test_every_route_names_the_phase_it_met(make_casino: Any, sqlite_url: str) -> None:
    """Routes outside their phase: the error document carries the phase and where the route is admitted."""
    c = make_casino([ROULETTE, BJ], sqlite_url)
    error = c.post("croupier", "/api/tables/r/draw", expect=409)["error"]
    assert (error["phase"], error["allowed"]) == ("idle", ["closed"])
    c.post("croupier", "/api/tables/t/open", key=None)
    error = c.post("croupier", "/api/tables/t/outcome", {"value": 3}, expect=409)["error"]
    assert (error["phase"], error["allowed"]) == ("betting", [])
    error = c.post("croupier", "/api/tables/t/open", key=None, expect=409)["error"]
    assert (error["phase"], error["allowed"]) == ("betting", ["idle", "settled"])


# -- item 2: the shoe's end is the server's -----------------------------------------------------------------------
def _exhaust_shoe(c: Any, table: str, left: int) -> None:
    """Move the table's electronic shoe to `left` cards before its end (what many coups would do)."""
    from sqlalchemy import select, update

    from tapete.server.storage.db import casino_tables

    server = c.client.app.state.server
    with server.db.write() as conn:
        info = dict(conn.execute(select(casino_tables.c.shoe).where(casino_tables.c.id == table)).scalar_one())
        info["position"] = info["total"] - left
        conn.execute(update(casino_tables).where(casino_tables.c.id == table).values(shoe=info))
    server.service.forget(table)


def test_a_shoe_that_runs_out_hands_back_and_the_next_round_has_a_new_shoe(make_casino: Any, database_url: str) -> None:
    c = make_casino([BJ], database_url)
    c.post("croupier", "/api/tables/t/open", key=None)             # the shoe is shuffled, its commitment logged
    c.post("croupier", "/api/tables/t/close")                      # no bets: no coup
    _exhaust_shoe(c, "t", 1)
    c.post("croupier", "/api/tables/t/open", key=None)
    before = c.balance("ana")
    c.bet("ana", "t", {"kind": "main", "amount": 500, "extra": {"box": 1}})
    c.bet("luis", "t", {"kind": "main", "amount": 1000, "extra": {"box": 2}})
    answer = c.post("croupier", "/api/tables/t/close")             # one card left: the coup cannot be dealt
    assert answer["phase"] == "settled" and {b["status"] for b in answer["bets"].values()} == {"void"}, answer
    assert c.balance("ana") == before
    table = c.get("ana", "/api/tables/t")
    assert table["shoe"]["number"] == 1
    c.post("croupier", "/api/tables/t/open", key=None)
    assert c.get("ana", "/api/tables/t")["shoe"]["number"] == 2      # a new shoe, its commitment before any bet
    c.bet("ana", "t", {"kind": "main", "amount": 500, "extra": {"box": 1}})
    assert c.post("croupier", "/api/tables/t/close")["phase"] in ("acting", "settled")
    log = c.get("inspector", "/api/tables/t/log?limit=1000")["records"]
    assert any(r["kind"] == "shoe" and r["data"].get("event") == "end" and r["data"].get("seed") for r in log)
    c.ledger()


def test_void_before_the_deal_hands_back_without_a_card(make_casino: Any, sqlite_url: str) -> None:
    """A card table's croupier may void before the deal (the table is never stuck in `betting`); nothing dealt."""
    live = {**BJ, "id": "bjv", "source": "croupier"}
    c = make_casino([BJ, live], sqlite_url)
    for table in ("t", "bjv"):
        c.post("croupier", f"/api/tables/{table}/open", key=None)
        before = c.balance("ana")
        c.bet("ana", table, {"kind": "main", "amount": 500, "extra": {"box": 1}})
        answer = c.post("jefe", f"/api/tables/{table}/void", {"reason": "the shoe is short"})
        assert answer["phase"] == "settled" and c.balance("ana") == before, answer
        assert dealt(c, table) == []
        c.post("croupier", f"/api/tables/{table}/open", key=None)
    c.ledger()


def test_restart_voids_a_card_round_in_betting_without_dealing_it(make_casino: Any, sqlite_url: str) -> None:
    """Recovery `void` at a card table in `betting`: the engine's void would deal the coup; the server hands back."""
    from tapete.server.tables import service as tables

    c = make_casino([{**BJ, "recovery": "void"}], sqlite_url)
    c.post("croupier", "/api/tables/t/open", key=None)
    before = c.balance("ana")
    c.bet("ana", "t", {"kind": "main", "amount": 500, "extra": {"box": 1}})
    server = c.client.app.state.server
    answer = server.service.run("t", None, tables.op_recover)
    assert answer["phase"] == "settled" and c.balance("ana") == before, answer
    assert dealt(c, "t") == []
    c.ledger()


# -- item 12 ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["tripoker", "pai-gow", "casino-monte", "monte-banca", "holdem"])
def test_a_live_table_its_family_cannot_deal_is_refused_at_load(make_casino: Any, sqlite_url: str, game: str) -> None:
    table = {"id": "x", "game": game, "jurisdiction": "ES-AN", "source": "croupier", "auto": False,
             "table": {"minimum": 500} if game != "holdem" else {"minimum": 200, "forced": "blinds"}}
    with pytest.raises(TapeteError) as refused:
        make_casino([ROULETTE, table], sqlite_url)
    message = refused.value.message
    assert refused.value.code == "bad-config" and "\n" not in message
    assert message.startswith("tables[1] (id 'x').source = \"croupier\"") and message.endswith('expected source = "rng"')


def test_serve_refuses_such_a_casino_file_in_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tapete.cli import app

    path = tmp_path / "casino.toml"
    path.write_text('[casino]\nname = "x"\njurisdiction = "ES-AN"\n\n[[tables]]\nid = "tp"\ngame = "tripoker"\n'
                    'source = "croupier"\n[tables.table]\nminimum = 500\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["serve", "--config", str(path), "--database", f"sqlite:///{tmp_path / 'c.db'}"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and 'tables[0]' in lines[0] and 'expected source = "rng"' in lines[0], result.output


def test_the_log_cursor_is_bounded(make_casino: Any, database_url: str) -> None:
    c = make_casino([ROULETTE], database_url)
    c.post("croupier", "/api/tables/r/open", key=None)
    assert c.get("inspector", f"/api/tables/r/log?after={2**31 - 1}")["records"] == []
    for after in (2**31, 2**63, 10**30):
        error = c.get("inspector", f"/api/tables/r/log?after={after}", expect=422)["error"]
        assert error["code"], error


def test_one_circle_table_at_a_time_under_concurrent_sits(make_casino: Any, database_url: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """003:4274-4275: four sits at four circle tables at once seat the player at one of them only (on PostgreSQL
    each sit locked only its own table, and all four found him seated nowhere else)."""
    from tapete.server.tables import circle

    holdem = {"game": "holdem", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 200, "forced": "blinds"}}
    c = make_casino([{**holdem, "id": f"p{i}"} for i in range(4)], database_url)
    look = circle.seated_elsewhere

    def slow(*args: Any) -> str | None:       # widen the race: every sit reads, then waits before it writes
        found = look(*args)
        time.sleep(0.3)
        return found

    monkeypatch.setattr(circle, "seated_elsewhere", slow)
    service = c.client.app.state.server.service
    start = threading.Barrier(4)
    outcomes: list[str] = []

    def sit(i: int) -> None:
        start.wait()
        try:
            circle.sit(service, f"p{i}", "ana", 1, 5_000)
            outcomes.append("seated")
        except TapeteError as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=sit, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["already-seated"] * 3 + ["seated"], outcomes
    assert c.balance("ana") == 95_000
    c.ledger()


# -- the protocol as data -------------------------------------------------------------------------------------------
def test_every_game_has_its_familys_adapter() -> None:
    from tapete.catalog import all_games
    from tapete.server.tables.adapters import WheelAdapter, adapter_for

    for game in all_games():
        adapter = adapter_for(game)
        assert adapter.game is game
        assert isinstance(adapter, WheelAdapter) != game.uses_shoe, game.id
        for route, phases in adapter.phases.routes.items():
            assert phases, (game.id, route)


def test_docs_show_the_generated_phase_table() -> None:
    from tapete.server.tables.adapters import families
    from tapete.server.tables.protocol import markdown

    docs = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    assert markdown(families()) in docs, "docs/server.md: paste the table `python -m tapete.server.tables.adapters` prints"


def test_every_route_asks_the_phase_table_first() -> None:
    """Each operation's first act on the table is `admit` (before parsing, the engine or the ledger)."""
    import inspect

    from tapete.server.tables import circle_hands, round_ops

    routes = {round_ops.op_open: "open", round_ops.op_bets: "bets", round_ops.op_close: "close",
              round_ops.op_draw: "draw", round_ops.op_key: "key", round_ops.op_confirm: "confirm",
              round_ops.op_correct: "correct", round_ops.op_void: "void", round_ops.op_limits: "limits",
              round_ops.op_act: "act", circle_hands.op_open: "open"}
    for fn, route in routes.items():
        body = inspect.getsource(fn).split('"""')[-1]          # after the docstring
        first = next(line.strip() for line in body.splitlines()[1:] if line.strip() and not line.strip().startswith("#"))
        assert first.startswith(f'admit(ctx, "{route}"') or (route == "bets" and "admit(ctx, \"bets\")" in body), (fn, first)
