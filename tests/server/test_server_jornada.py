"""Issue 30: a full jornada over HTTP at three tables — roulette (ES-AN: a limit change that completes the
anticipo), blackjack and punto y banca on one reversible table (ES-IB: the cloth changed once, a second change
refused) — with fills, a credit, a drop and tips; every figure of the jornada report checked to the cent against
what the test itself moved and the ledger, the theoretical win computed here from `tapete edge`'s figures."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import create_engine, text

ROULETTE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}
BJ = {"id": "bj", "game": "blackjack", "jurisdiction": "ES-IB", "auto": False, "table": {"minimum": 500},
      "cloth_of": "mesa-7"}
PB = {"id": "pb", "game": "punto-banca", "jurisdiction": "ES-IB", "auto": False, "table": {"minimum": 1000},
      "cloth_of": "mesa-7"}
PLAYERS = {"ana": 500_000, "luis": 500_000, "eva": 500_000}

_EDGES: dict[tuple[str, str], dict[tuple[str, str | None], Fraction]] = {}


def edge(game: str, jurisdiction: str, kind: str, option: str | None = None) -> Fraction:
    """`tapete edge`'s figure for one bet (computed here, not through the server's books)."""
    from tapete.analysis.edges import edges
    from tapete.catalog import get_game

    if (game, jurisdiction) not in _EDGES:
        _EDGES[(game, jurisdiction)] = {(r.kind, r.option): Fraction(r.house_edge) for r in edges(get_game(game), jurisdiction)}
    return _EDGES[(game, jurisdiction)][(kind, option)]


def roulette_variance(kind: str) -> Fraction:
    """Net result per unit: pays k to 1 with probability n/37, else -1 (straight 35:1 on 1 number, dozen 2:1 on 12)."""
    k, n = {"straight": (35, 1), "dozen": (2, 12)}[kind]
    p = Fraction(n, 37)
    mean = p * k - (1 - p)
    return p * k * k + (1 - p) - mean * mean


class Tally:
    """What the test itself did at one table: money moved and bets settled."""

    def __init__(self, anticipo: int) -> None:
        self.anticipo = anticipo
        self.fills = self.credits = self.drop = self.tips = 0
        self.staked = self.returned = self.handle = 0
        self.theoretical = Fraction(0)
        self.variance = 0.0
        self.bets = 0

    def settle(self, staked: int, returned: int, initial: int, edge: Fraction, variance: float) -> None:
        self.staked += staked
        self.returned += returned
        self.handle += staked
        self.theoretical += edge * initial
        self.variance += variance * initial * initial
        self.bets += 1


def spin(c: Any, bets: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    ids = {}
    for player, bet in bets:
        ids[c.bet(player, "ruleta", bet)["bets"][0]["id"]] = bet
    c.post("croupier", "/api/tables/ruleta/close")
    c.post("croupier", "/api/tables/ruleta/draw")
    return ids


def settled(c: Any, table: str, ids: dict[str, Any], url: str) -> dict[str, tuple[int, int, str]]:
    with create_engine(url.replace("postgresql://", "postgresql+psycopg://")).connect() as conn:
        rows = conn.execute(text("SELECT bet_id, collected, returned, status FROM bets WHERE table_id = :t"), {"t": table}).all()
    return {b: (int(s), int(r), st) for b, s, r, st in rows if b in ids}


def coup(c: Any, table: str, bets: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """A card coup: open, bets, deal, every decision by its owner (stand, else the first offered)."""
    c.post("croupier", f"/api/tables/{table}/open", key=None)
    owner: dict[str, tuple[str, dict[str, Any]]] = {}
    for player, bet in bets:
        owner[c.bet(player, table, bet)["bets"][0]["id"]] = (player, bet)
    answer = c.post("croupier", f"/api/tables/{table}/close")
    while answer["phase"] == "acting":
        choice = next((d for d in answer["due"] if d["do"] == "stand"), answer["due"][0])
        answer = c.post(owner[choice["bet"]][0], f"/api/tables/{table}/acts", {"bet": choice["bet"], "do": choice["do"]})
    return answer


def house(c: Any) -> dict[str, int]:
    return c.get("inspector", "/api/ledger")["house_accounts"]


def check_books(b: dict[str, Any], t: Tally, closing: int, cagnotte: int, sd_per_unit: float | None = None) -> None:
    assert b["opening_float"] == t.anticipo
    assert (b["fills"], b["credits"], b["drop"], b["tips"], b["cagnotte"]) == (t.fills, t.credits, t.drop, t.tips, cagnotte)
    assert b["closing_float"] == closing
    win = closing - t.anticipo + t.credits - t.fills + t.drop
    assert b["win"] == win
    assert b["result"] == win + cagnotte == t.staked - t.returned       # the house kept what the players lost
    assert b["reconciled"] is True
    assert b["handle"] == t.handle and b["bets"] == t.bets
    assert b["hold_pct"] == round(100 * (t.staked - t.returned) / t.handle, 4)
    assert Fraction(b["theoretical_exact"]) == t.theoretical
    assert b["theoretical_win"] == round(t.theoretical)
    sd = math.sqrt(t.variance)
    assert b["theoretical_sd"] == pytest.approx(sd, abs=0.01)
    assert b["deviations"] == pytest.approx(float((b["result"] - t.theoretical) / Fraction(sd)), abs=1e-3)


def test_full_jornada_at_three_tables(make_casino: Any, database_url: str) -> None:
    from tapete.analysis.par import law_moments, punto_banca_law
    from tapete.catalog import get_game
    from tapete.server.jornada.theory import BLACKJACK_SD

    c = make_casino([ROULETTE, BJ, PB], database_url, players=PLAYERS)
    # -- opening: the chief counts each anticipo in; a cloth of a table in play cannot open
    r_open = c.post("jefe", "/api/tables/ruleta/jornada/open", {"anticipo": 500_000})
    assert r_open["float"] == 500_000 and r_open["guarantee"] == 500_000
    assert house(c)["float:ruleta"] == 500_000
    c.post("jefe", "/api/tables/bj/jornada/open", {"anticipo": 300_000})
    busy = c.post("jefe", "/api/tables/pb/jornada/open", {"anticipo": 400_000}, expect=409)
    assert busy["error"]["code"] == "cloth-in-use"
    c.post("croupier", "/api/tables/ruleta/jornada/open", {"anticipo": 1}, expect=403)      # the chief opens
    ruleta, bj, pb = Tally(500_000), Tally(300_000), Tally(400_000)

    # -- roulette (ES-AN): a fill, a drop, a tip, spins, a limit change with the anticipo completed
    c.post("cajero", "/api/tables/ruleta/float", {"amount": 100_000, "direction": "fill"})
    ruleta.fills += 100_000
    c.post("croupier", "/api/tables/ruleta/drop", {"player": "ana", "amount": 20_000})
    ruleta.drop += 20_000
    assert c.balance("ana") == 520_000
    c.post("ana", "/api/tables/ruleta/tip", {"amount": 500})
    ruleta.tips += 500
    placed: dict[str, Any] = {}
    for _ in range(3):
        placed.update(spin(c, [("ana", {"kind": "straight", "on": [17], "amount": 1_000}),
                               ("luis", {"kind": "dozen", "on": [1], "amount": 2_000})]))
    change = c.post("jefe", "/api/tables/ruleta/limits", {"values": {"minimum": 200}})
    assert change["anticipo_due"] == 1_000_000 and change["completed"] == 500_000     # 500,000 x 200/100
    assert change["guarantee"] == 1_000_000 + 300_000
    ruleta.fills += 500_000                                                          # the completion is a fill
    for _ in range(4):      # three spins at the old limit, then the new minimum
        placed.update(spin(c, [("eva", {"kind": "straight", "on": [0], "amount": 200}),
                               ("luis", {"kind": "dozen", "on": [3], "amount": 400})]))
    for bet_id, (staked, returned, status) in settled(c, "ruleta", placed, database_url).items():
        assert status in ("won", "lost")
        kind, amount = placed[bet_id]["kind"], placed[bet_id]["amount"]
        ruleta.settle(staked, returned, amount, edge("roulette-french", "ES-AN", kind), float(roulette_variance(kind)))

    # -- blackjack (ES-IB): coups, a credit, a tip; then its closing
    bj_ids: dict[str, Any] = {}
    for _ in range(4):
        answer = coup(c, "bj", [("ana", {"kind": "main", "amount": 1_000, "extra": {"box": 1}}),
                                ("eva", {"kind": "main", "amount": 2_000, "extra": {"box": 3}})])
        bj_ids.update({b: r for b, r in answer["bets"].items()})
    c.post("jefe", "/api/tables/bj/float", {"amount": 50_000, "direction": "credit"})
    bj.credits += 50_000
    c.post("luis", "/api/tables/bj/tip", {"amount": 1_000})
    bj.tips += 1_000
    bj_edge = edge("blackjack", "ES-IB", "main", "basic-strategy")
    with create_engine(database_url.replace("postgresql://", "postgresql+psycopg://")).connect() as conn:
        initial = dict(conn.execute(text("SELECT bet_id, amount FROM bets WHERE table_id = 'bj'")).all())
    for bet_id, (staked, returned, status) in settled(c, "bj", bj_ids, database_url).items():
        if status in ("won", "lost", "push"):
            bj.settle(staked, returned, int(initial[bet_id]), bj_edge, BLACKJACK_SD["ES-IB"] ** 2)
    held = house(c)
    wrong = c.post("jefe", "/api/tables/bj/jornada/close", {"float": held["float:bj"] + 1, "tips": 1_000}, expect=422)
    assert wrong["error"]["code"] == "count-mismatch"
    bj_close = c.post("jefe", "/api/tables/bj/jornada/close", {"float": held["float:bj"], "tips": 1_000})
    check_books(bj_close["books"], bj, held["float:bj"], 0)

    # -- the cloth changed (ES-IB, once): punto y banca on the same table, with its own anticipo and books
    c.post("jefe", "/api/tables/pb/jornada/open", {"anticipo": 400_000})
    pb_ids: dict[str, Any] = {}
    for _ in range(4):
        answer = coup(c, "pb", [("ana", {"kind": "player", "amount": 1_000}), ("luis", {"kind": "banker", "amount": 2_000}),
                                ("eva", {"kind": "tie", "amount": 1_000})])
        pb_ids.update(answer["bets"])
    c.post("jefe", "/api/tables/pb/float", {"amount": 30_000, "direction": "fill"})
    pb.fills += 30_000
    game = get_game("punto-banca")
    from tapete.analysis.edges import edges

    for bet_id, (staked, returned, status) in settled(c, "pb", pb_ids, database_url).items():
        kind = pb_kind(c, bet_id, database_url)
        line = next(r for r in edges(game, "ES-IB") if r.kind == kind)
        variance = float(law_moments(punto_banca_law(game, "ES-IB", line)).variance)
        if status in ("won", "lost", "push"):
            pb.settle(staked, returned, staked, edge("punto-banca", "ES-IB", kind), variance)
    held = house(c)
    cagnotte = held.get("commission:pb", 0)
    pb_close = c.post("jefe", "/api/tables/pb/jornada/close", {"float": held["float:pb"], "cagnotte": cagnotte})
    check_books(pb_close["books"], pb, held["float:pb"], cagnotte)
    assert (cagnotte > 0) == any(pb_kind(c, b, database_url) == "banker" and s == "won"
                                 for b, (_, _, s) in settled(c, "pb", pb_ids, database_url).items())

    # -- a second change in the same jornada: refused (000:314)
    again = c.post("jefe", "/api/tables/bj/jornada/open", {"anticipo": 300_000}, expect=422)
    assert again["error"]["code"] == "cloth-change-refused" and "000:314" in again["error"]["source"]

    # -- the roulette closes last; the report
    held = house(c)
    c.post("jefe", "/api/tables/ruleta/jornada/close", {"float": held["float:ruleta"], "drop": 20_000, "tips": 500})
    report = c.get("inspector", "/api/jornada")
    assert report["guarantee"] == 0                    # every table closed: nothing in play
    by_table = {b["table"]: b for b in report["jornadas"]}
    check_books(by_table["ruleta"], ruleta, held["float:ruleta"], 0)
    check_books(by_table["bj"], bj, bj_close["books"]["closing_float"], 0)
    check_books(by_table["pb"], pb, pb_close["books"]["closing_float"], cagnotte)
    cloth = report["cloths"]["mesa-7"]
    assert cloth["jornadas"] == 2 and cloth["win"] == by_table["bj"]["win"] + by_table["pb"]["win"]
    casino = report["casino"]
    for key in ("fills", "credits", "drop", "tips", "cagnotte", "win", "result", "handle", "theoretical_win"):
        assert casino[key] == sum(b[key] for b in by_table.values()), key
    assert casino["fills"] == 100_000 + 500_000 + 30_000 and casino["credits"] == 50_000
    assert report["games"]["blackjack"]["win"] == by_table["bj"]["win"]
    # every box emptied at the closings: the floats to the bank, the tips to the tronc
    held = house(c)
    assert all(held.get(f"{box}:{t}", 0) == 0 for box in ("float", "drop", "tips", "commission") for t in ("ruleta", "bj", "pb"))
    assert held["tronc"] == 1_500
    # the openings and closings are signed records of each table's chain
    log = c.get("inspector", "/api/tables/bj/log")
    kinds = [(r["kind"], r["actor"]) for r in log["records"]]
    assert ("jornada-open", "jefe") in kinds and ("jornada-close", "jefe") in kinds and log["chain"]["ok"]
    c.ledger()                                         # the ledger's invariants and `tapete audit verify`


def pb_kind(c: Any, bet_id: str, url: str) -> str:
    with create_engine(url.replace("postgresql://", "postgresql+psycopg://")).connect() as conn:
        return str(conn.execute(text("SELECT kind FROM bets WHERE table_id = 'pb' AND bet_id = :b"), {"b": bet_id}).scalar_one())


def test_limit_change_refused_in_es(make_casino: Any, sqlite_url: str) -> None:
    """ES: no change of the limit once the table is in play (001:147), and so no anticipo completed."""
    c = make_casino([{**ROULETTE, "jurisdiction": "ES"}], sqlite_url)
    c.post("jefe", "/api/tables/ruleta/jornada/open", {"anticipo": 500_000})
    refused = c.post("jefe", "/api/tables/ruleta/limits", {"values": {"minimum": 200}}, expect=422)
    assert refused["error"]["code"] == "illegal-action" and "001:14" in refused["error"]["source"]
    assert c.get("inspector", "/api/jornada")["jornadas"][0]["anticipo_due"] == 500_000
    assert c.get("inspector", "/api/jornada")["guarantee"] == 500_000


def test_cloth_change_refused_in_es(make_casino: Any, sqlite_url: str) -> None:
    """ES has no reversible cloths: a table that played one game does not open another in the jornada."""
    tables = [{**BJ, "jurisdiction": "ES"}, {**PB, "jurisdiction": "ES"}]
    c = make_casino(tables, sqlite_url)
    c.post("jefe", "/api/tables/bj/jornada/open", {"anticipo": 100_000})
    c.post("jefe", "/api/tables/bj/jornada/close", {"float": 100_000})
    refused = c.post("jefe", "/api/tables/pb/jornada/open", {"anticipo": 100_000}, expect=422)
    assert refused["error"]["code"] == "cloth-change-refused"
    c.post("jefe", "/api/tables/bj/jornada/open", {"anticipo": 100_000})         # the same game again: no change


def test_second_cloth_change_refused_in_es_ib(make_casino: Any, sqlite_url: str) -> None:
    """ES-IB: one change of game per jornada (000:314; 000:720); the second is refused."""
    c = make_casino([BJ, PB], sqlite_url)
    for table in ("bj", "pb"):
        c.post("jefe", f"/api/tables/{table}/jornada/open", {"anticipo": 100_000})
        c.post("jefe", f"/api/tables/{table}/jornada/close", {"float": 100_000})
    refused = c.post("jefe", "/api/tables/bj/jornada/open", {"anticipo": 100_000}, expect=422)
    assert refused["error"]["code"] == "cloth-change-refused"
    assert "000:314" in refused["error"]["source"]
    c.ledger()


def test_drop_and_tip_need_an_open_jornada(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([ROULETTE], sqlite_url)
    assert c.post("croupier", "/api/tables/ruleta/drop", {"player": "ana", "amount": 100}, expect=409)["error"]["code"] == "no-jornada"
    assert c.post("ana", "/api/tables/ruleta/tip", {"amount": 100}, expect=409)["error"]["code"] == "no-jornada"
    c.post("jefe", "/api/tables/ruleta/jornada/open", {"anticipo": 1000})
    assert c.post("croupier", "/api/tables/ruleta/tip", {"amount": 100}, expect=403)["error"]["code"] == "forbidden"
    assert c.post("ana", "/api/tables/ruleta/drop", {"player": "ana", "amount": 100}, expect=403)["error"]["code"] == "forbidden"
    assert c.get("ana", "/api/jornada", expect=403)["error"]["code"] == "forbidden"
    c.post("jefe", "/api/tables/ruleta/jornada/open", {"anticipo": 1000}, expect=409)


def test_ledger_and_rounds_take_a_period(make_casino: Any, sqlite_url: str) -> None:
    """`/api/ledger` and `/api/rounds` answer for a period (`from`, `to`); a period that ends before it starts is refused."""
    import time

    c = make_casino([ROULETTE], sqlite_url)
    before = time.time()
    spin(c, [("ana", {"kind": "straight", "on": [3], "amount": 100})])
    c.post("cajero", "/api/tables/ruleta/float", {"amount": 5_000, "direction": "fill"})
    after = time.time() + 1
    window = c.get("inspector", f"/api/ledger?from={before}&to={after}")["window"]
    assert window["kinds"]["fill"]["transactions"] == 1 and window["kinds"]["bet"]["transactions"] == 1
    fill = next(t for t in window["transactions"] if t["kind"] == "fill")
    assert {(p["account"], p["amount"]) for p in fill["postings"]} == {("bank", -5_000), ("float:ruleta", 5_000)}
    assert "window" not in c.get("inspector", "/api/ledger")
    assert c.get("inspector", f"/api/ledger?to={before}")["window"]["count"] == 4   # the opening float, 3 deposits
    assert len(c.get("ana", f"/api/rounds?table=ruleta&from={before}")["rounds"]) == 1
    assert c.get("ana", f"/api/rounds?table=ruleta&to={before}")["rounds"] == []
    assert c.get("ana", "/api/rounds?from=2026-01-01&to=2025-01-01", expect=422)["error"]["code"] == "bad-request"
    assert c.get("ana", "/api/rounds?from=yesterday", expect=422)["error"]["code"] == "bad-request"


def test_no_opening_or_closing_with_bets_on_the_table(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([ROULETTE], sqlite_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.post("jefe", "/api/tables/ruleta/jornada/open", {"anticipo": 100_000})    # betting, nobody has bet yet: fine
    c.bet("ana", "ruleta", {"kind": "straight", "on": [3], "amount": 100})
    refused = c.post("jefe", "/api/tables/ruleta/jornada/close", {"float": 100_000}, expect=409)
    assert refused["error"]["code"] == "round-in-progress"


def test_shift_command(make_casino: Any, tmp_path: Any) -> None:
    """`tapete shift`: the books in euros (human), as JSON and CSV; a bad option is one line and exit 2."""
    import json
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'casino.db'}"
    c = make_casino([ROULETTE], url)
    c.post("jefe", "/api/tables/ruleta/jornada/open", {"anticipo": 100_000})
    c.post("croupier", "/api/tables/ruleta/drop", {"player": "ana", "amount": 5_000})
    spin(c, [("ana", {"kind": "straight", "on": [3], "amount": 1_000})])
    c.post("jefe", "/api/tables/ruleta/void", {"reason": "ball-out"}, expect=None)
    upheld = c.post("jefe", "/api/tables/ruleta/disputes", {"round": 1, "player": "ana", "reason": "paid short", "claim": 2_500})
    c.post("jefe", f"/api/tables/ruleta/disputes/{upheld['dispute']}/close", {"outcome": "upheld", "note": "recounted"})
    floor = c.post("jefe", "/api/tables/ruleta/disputes", {"round": 1, "reason": "a chip on the line"})
    held = house(c)
    c.post("jefe", "/api/tables/ruleta/jornada/close", {"float": held["float:ruleta"], "drop": 5_000})
    books = c.get("inspector", "/api/jornada")["jornadas"][0]

    def shift(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tapete.cli", "shift", "--database", url, *args],
                              capture_output=True, text=True, timeout=120)

    human = shift()
    assert human.returncode == 0, human.stderr
    assert "Table ruleta (roulette-french, ES-AN)" in human.stdout and "opened " in human.stdout
    assert "1 000.00 €" in human.stdout and "50.00 €" in human.stdout and "staff: croupier, jefe" in human.stdout
    assert "{" not in human.stdout and "None" not in human.stdout and "null" not in human.stdout
    # the period's disputes: who, about which round, the claim in euros, who took it and how it ended
    assert "Disputes: 2" in human.stdout
    assert (f"dispute {upheld['dispute']} by ana at table ruleta, round 1, claiming 25.00 €, recorded by jefe, "
            in human.stdout) and ": paid short — upheld by jefe, " in human.stdout and ": recounted" in human.stdout
    assert f"dispute {floor['dispute']} from the floor at table ruleta, round 1, recorded by jefe" in human.stdout
    assert ": a chip on the line — open" in human.stdout
    doc = json.loads(shift("--json", "--table", "ruleta").stdout)
    assert doc["tables"]["ruleta"]["win"] == books["win"] and doc["casino"]["drop"] == 5_000
    assert [(d["dispute"], d["player"], d["claim"], d["status"], (d["closed"] or {}).get("by")) for d in doc["disputes"]] == \
        [(upheld["dispute"], "ana", 2_500, "upheld", "jefe"), (floor["dispute"], None, None, "open", None)]
    lines = shift("--csv").stdout.splitlines()
    assert lines[0].startswith("level,name,jornadas,opening_float") and lines[-1].startswith("casino,casino,1,100000")
    for args, code in ((("--from", "ayer"), "bad-request"), (("--from", "2026-02-01", "--to", "2026-01-01"), "bad-request")):
        bad = shift(*args)
        assert bad.returncode == 2 and bad.stderr.startswith(f"error {code}: ") and len(bad.stderr.splitlines()) == 1
    both = shift("--json", "--csv")                     # --json: the error document, as the other commands
    assert both.returncode == 2 and json.loads(both.stdout)["error"]["code"] == "bad-option"
    empty = shift("--from", "2001-01-01", "--to", "2001-01-02")
    assert empty.returncode == 0 and "No table was opened in a jornada in this period." in empty.stdout


def test_cloth_rules_per_jurisdiction() -> None:
    """ES none; ES-IB, ES-GA one; ES-AN between banked card games, as many as `casino.cloth_changes` (default one)."""
    from tapete.core.errors import TapeteError
    from tapete.server.jornada.rules import anticipo_due, check_cloth_change

    def refused(*args: Any) -> str:
        with pytest.raises(TapeteError) as caught:
            check_cloth_change(*args)
        assert caught.value.code == "cloth-change-refused"
        return str(caught.value.source)

    assert refused("ES", 0, None, True).startswith("001")
    for j in ("ES-IB", "ES-GA"):
        check_cloth_change(j, 0, None, False)
        refused(j, 1, 5, True)                   # the casino's option does not lift the text's one change
    check_cloth_change("ES-AN", 0, None, True)
    assert "003:690" in refused("ES-AN", 0, None, False)       # a roulette cloth: not a banked card game
    refused("ES-AN", 1, None, True)
    check_cloth_change("ES-AN", 2, 3, True)
    assert anticipo_due(500_000, 100, 200) == 1_000_000 and anticipo_due(500_000, 100, 50) == 500_000
    assert anticipo_due(100_001, 300, 400) == 133_335           # rounded up to the cent


def test_player_banked_theoretical_win_is_the_cagnotte() -> None:
    """Where players bank (chemin de fer) the house takes no risk: its theoretical win is the cagnotte, sd 0."""
    from tapete.server.jornada.books import _theory

    out = _theory({"game": "chemin-de-fer", "jurisdiction": "ES"}, [{"bet_id": "b1", "kind": "bank", "amount": 1000}],
                  house_banked=False, cagnotte=250)
    assert out["cents"] == 250 and out["sd"] == 0.0 and "cagnotte" in out["strategy"]
