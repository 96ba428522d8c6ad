"""The money in the audit trail (issue 26, item 5): someone with write access to the database edits the books by
direct SQL on a live-played database — every edit is reported by `tapete audit verify` (exit 1, one sentence
naming what differs), a clean database passes (exit 0). On SQLite and PostgreSQL.

Before the ledger's chains, the first two attacks passed /api/ledger, both hash chains, the heads an inspector
noted, `tapete audit export` and `tapete verify`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from tapete.cli import app as cli

ROULETTE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}
BLACKJACK = {"id": "bj", "game": "blackjack", "jurisdiction": "ES", "auto": False, "table": {"minimum": 500}}


def play(c: Any) -> None:
    """Spins until some bet has lost (straight-ups: almost every spin), with a blackjack coup and the cage beside."""
    for _ in range(8):
        c.post("croupier", "/api/tables/ruleta/open", key=None)
        c.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 100}, {"kind": "red", "amount": 200})
        c.bet("luis", "ruleta", {"kind": "black", "amount": 300})
        c.post("croupier", "/api/tables/ruleta/close")
        c.post("croupier", "/api/tables/ruleta/draw")
        if _one(c, "SELECT COUNT(*) FROM bets WHERE status = 'lost'"):
            break
    c.post("croupier", "/api/tables/bj/open", key=None)
    c.bet("eva", "bj", {"kind": "main", "amount": 500, "extra": {"box": 1}})
    c.post("croupier", "/api/tables/bj/close")
    c.post("cajero", "/api/cashier/deposit", {"user": "eva", "amount": 1234})
    c.post("cajero", "/api/cashier/withdraw", {"user": "luis", "amount": 1000})
    c.post("cajero", "/api/tables/ruleta/float", {"amount": 50_000, "direction": "fill"})


def _db(c: Any) -> Any:
    return c.client.app.state.server.db


def _one(c: Any, sql: str, **params: Any) -> Any:
    with _db(c).read() as conn:
        return conn.execute(text(sql), params).scalar()


def _sql(c: Any, *statements: tuple[str, dict[str, Any]]) -> None:
    with _db(c).write() as conn:
        for sql, params in statements:
            conn.execute(text(sql), params)


def verify(url: str, *extra: str) -> tuple[int, str]:
    out = CliRunner().invoke(cli, ["audit", "verify", "--database", url, *extra])
    return out.exit_code, out.output


@pytest.fixture
def played(make_casino: Any, database_url: str) -> Any:
    c = make_casino([ROULETTE, BLACKJACK], database_url)
    play(c)
    code, out = verify(database_url)
    assert code == 0, out                    # the clean database passes
    assert "the books hold" in out
    return c


def test_a_clean_database_passes(played: Any, database_url: str) -> None:
    from tapete.server.audit.verify import verify_database

    report = verify_database(_db(played))
    assert report.ok, report.problems
    assert report.checked["ledger transactions"] >= 10 and report.checked["round records"] >= 1
    assert set(report.heads["ledger"]) == {"cage", "table:ruleta", "table:bj"}
    assert played.get(None, "/api/health")["ledger_heads"] == report.heads["ledger"]   # where an inspector notes them
    # the heads it prints are the ones an inspector notes: given back, they pass
    heads = [f"ruleta={report.heads['tables']['ruleta']['hash']}", f"staff-log={report.heads['staff_log']['hash']}",
             f"ledger:cage={report.heads['ledger']['cage']['hash']}"]
    code, out = verify(database_url, *sum((["--head", h] for h in heads), []))
    assert code == 0, out
    code, out = verify(database_url, "--json")
    assert code == 0 and json.loads(out)["ok"]


def _five_thousand(c: Any, chain: dict[str, Any] | None = None) -> None:
    """One extra balanced transaction: 5,000.00 from the table's float to ana's wallet, balances moved with it."""
    cols, vals = "ts, kind, table_id, round_id, actor, memo", ":ts, 'settle', 'ruleta', NULL, NULL, NULL"
    if chain:
        cols += ", chain, chain_seq, prev_hash, hash"
        vals += ", :chain, :chain_seq, :prev_hash, :hash"
    _sql(c, (f"INSERT INTO ledger_tx ({cols}) VALUES ({vals})", {"ts": 1.0e9, **(chain or {})}))
    tx = _one(c, "SELECT MAX(id) FROM ledger_tx")
    _sql(c, ("INSERT INTO postings (tx_id, account_id, amount, bet_id) VALUES (:t, 'float:ruleta', -500000, NULL)", {"t": tx}),
         ("INSERT INTO postings (tx_id, account_id, amount, bet_id) VALUES (:t, 'wallet:ana', 500000, NULL)", {"t": tx}),
         ("UPDATE accounts SET balance = balance - 500000 WHERE id = 'float:ruleta'", {}),
         ("UPDATE accounts SET balance = balance + 500000 WHERE id = 'wallet:ana'", {}))


def test_an_extra_balanced_transaction_is_reported(played: Any, database_url: str) -> None:
    before = played.balance("ana")
    _five_thousand(played)
    assert played.balance("ana") == before + 500_000
    report = played.get("inspector", "/api/ledger")  # the ledger's own check still holds: it balances
    assert report["ok"] and report["sum"] == 0
    code, out = verify(database_url)
    assert code == 1, out
    assert "is in no chain" in out and "float:ruleta -5 000.00 €" in out and "wallet:ana +5 000.00 €" in out, out


@pytest.mark.parametrize("lane", ["table:ruleta", "cage"])
def test_an_extra_transaction_chained_and_rehashed_is_reported(played: Any, database_url: str, lane: str) -> None:
    """The attacker knows the chain: he links his transaction into a lane, hashes it and moves the lane's
    stored head. The table's log (or the staff log) accounts for every transaction but his."""
    from tapete.server.audit.ledger_chain import HEAD_KEY, tx_hash

    seq, prev = _one(played, "SELECT MAX(chain_seq) FROM ledger_tx WHERE chain = :lane", lane=lane), None
    prev = _one(played, "SELECT hash FROM ledger_tx WHERE chain = :lane AND chain_seq = :s", lane=lane, s=seq)
    lines = [("float:ruleta", -500000, None), ("wallet:ana", 500000, None)]
    kind = "settle" if lane != "cage" else "credit"
    digest = tx_hash(prev, lane, seq + 1, 1.0e9, kind, "ruleta", None, None, None, lines)
    _five_thousand(played, {"chain": lane, "chain_seq": seq + 1, "prev_hash": prev, "hash": digest})
    if kind == "credit":
        _sql(played, ("UPDATE ledger_tx SET kind = 'credit' WHERE hash = :h", {"h": digest}),
             ("UPDATE meta_kv SET value = :v WHERE key = :k", {"v": f"{seq + 1}:{digest}", "k": HEAD_KEY}))
    else:
        _sql(played, ("UPDATE casino_tables SET ledger_seq = :s, ledger_hash = :h WHERE id = 'ruleta'", {"s": seq + 1, "h": digest}))
    code, out = verify(database_url)
    assert code == 1, out
    if lane == "cage":
        assert "is in the cage's lane but no staff log record names it" in out, out
    else:
        assert "table ruleta: ledger transaction(s)" in out and "come after the last one its log accounts for" in out, out


def _lost_bet(c: Any) -> tuple[str, int, int]:
    with _db(c).read() as conn:
        bet, round_id, amount = conn.execute(text(
            "SELECT b.bet_id, b.round_id, b.amount FROM bets b WHERE b.table_id = 'ruleta' AND b.status = 'lost' "
            "ORDER BY b.bet_id LIMIT 1")).one()
    return bet, round_id, amount


def _rewrite_record(c: Any, round_id: int, bet: str, returned: int) -> None:
    raw = "CAST(record AS TEXT)" if not _db(c).is_sqlite else "record"
    record = json.loads(_one(c, f"SELECT {raw} FROM rounds WHERE id = :r", r=round_id))
    record["settlement"]["bets"][bet].update(status="won", returned=returned)
    cast = "CAST(:rec AS JSON)" if not _db(c).is_sqlite else ":rec"
    _sql(c, (f"UPDATE rounds SET record = {cast} WHERE id = :r", {"rec": json.dumps(record), "r": round_id}))


def test_a_round_record_rewritten_so_a_lost_bet_reads_won_is_reported(played: Any, database_url: str) -> None:
    bet, round_id, amount = _lost_bet(played)
    _rewrite_record(played, round_id, bet, amount * 2)
    _sql(played, ("UPDATE bets SET status = 'won', returned = :r WHERE table_id = 'ruleta' AND bet_id = :b",
                  {"r": amount * 2, "b": bet}))
    assert played.get("ana", f"/api/rounds/{round_id}")["settlement"]["bets"][bet]["status"] == "won"
    code, out = verify(database_url)
    assert code == 1, out
    assert f"(id {round_id}): its record is not the one the table's log recorded" in out, out
    assert f"bet {bet} of table ruleta" in out and "its postings moved" in out, out


def test_a_round_record_alone_rewritten_is_reported(played: Any, database_url: str) -> None:
    bet, round_id, amount = _lost_bet(played)
    _rewrite_record(played, round_id, bet, amount * 2)
    code, out = verify(database_url)
    assert code == 1 and f"(id {round_id}): its record is not the one the table's log recorded" in out, out
    assert "the bet row says lost, returning 0.00 €; the record of round" in out, out


def test_a_posting_edited_is_reported(played: Any, database_url: str) -> None:
    pid, tx = _one(played, "SELECT MAX(id) FROM postings WHERE account_id = 'wallet:luis'"), None
    tx = _one(played, "SELECT tx_id FROM postings WHERE id = :p", p=pid)
    _sql(played, ("UPDATE postings SET amount = amount + 10000 WHERE id = :p", {"p": pid}))
    code, out = verify(database_url)
    assert code == 1, out
    assert f"ledger transaction {tx} (" in out and "does not match its hash" in out, out
    assert "account wallet:luis holds" in out, out


def test_a_ledger_row_deleted_is_reported(played: Any, database_url: str) -> None:
    tx = _one(played, "SELECT MIN(id) FROM ledger_tx WHERE kind = 'bet' AND table_id = 'ruleta'")
    _sql(played, ("DELETE FROM postings WHERE tx_id = :t", {"t": tx}), ("DELETE FROM ledger_tx WHERE id = :t", {"t": tx}))
    code, out = verify(database_url)
    assert code == 1, out
    assert "ledger lane table:ruleta: transaction" in out and "were deleted" in out, out


def test_a_balance_edited_is_reported(played: Any, database_url: str) -> None:
    _sql(played, ("UPDATE accounts SET balance = balance + 500000 WHERE id = 'wallet:eva'", {}))
    code, out = verify(database_url)
    assert code == 1, out
    assert "account wallet:eva holds" in out and "the balance was edited" in out, out
    assert "the balances sum to 5 000.00 €, not zero" in out, out


def test_a_head_the_inspector_noted_catches_a_whole_lane_rewritten(played: Any, database_url: str) -> None:
    from tapete.server.audit.verify import verify_database

    noted = verify_database(_db(played)).heads["ledger"]["cage"]["hash"]
    played.post("cajero", "/api/cashier/deposit", {"user": "eva", "amount": 100})   # the lane moves on honestly
    code, out = verify(database_url, "--head", f"ledger:cage={noted}")
    assert code == 1 and "not at the head the inspector noted" in out, out


def test_upgrade_chains_an_existing_database(played: Any, database_url: str) -> None:
    """A database written before revision 0005 (here: taken back to 0004) is chained at upgrade; later edits
    are then reported as on a new one."""
    from alembic import command

    from tapete.server.storage.migrations import alembic_config

    db = _db(played)
    cfg = alembic_config(db.url)
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    with db.read() as conn:
        cols = {r[1] if db.is_sqlite else r[0] for r in conn.exec_driver_sql(
            "PRAGMA table_info(ledger_tx)" if db.is_sqlite else
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'ledger_tx'")}
    assert "hash" not in cols
    db.migrate()
    code, out = verify(database_url)
    assert code == 0, out
    _sql(played, ("UPDATE accounts SET balance = balance + 1 WHERE id = 'wallet:ana'", {}),
         ("UPDATE postings SET amount = amount + 1 WHERE id = (SELECT MAX(id) FROM postings WHERE account_id = 'wallet:ana')", {}))
    code, out = verify(database_url)
    assert code == 1 and "does not match its hash" in out, out


def test_verify_refuses_a_missing_database_in_one_line(tmp_path: Any) -> None:
    code, out = verify(f"sqlite:///{tmp_path / 'none.db'}")
    assert code == 2 and json.loads(out)["error"]["code"] == "bad-option" and out.count("\n") == 1, out


def _rechain(c: Any, lane: str) -> None:
    """The attacker's tool: the lane's transactions hashed again from the genesis, numbered afresh, its head moved."""
    from tapete.server.audit.ledger_chain import CAGE, HEAD_KEY, Lane, genesis

    with _db(c).write() as conn:
        txs = conn.execute(text("SELECT id, ts, kind, table_id, round_id, actor, memo FROM ledger_tx WHERE chain = :l "
                                "ORDER BY chain_seq"), {"l": lane}).all()
        head = Lane(lane, 0, genesis(lane))
        conn.execute(text("UPDATE ledger_tx SET chain_seq = -chain_seq WHERE chain = :l"), {"l": lane})
        for tx_id, ts, kind, table_id, round_id, actor, memo in txs:
            lines = [(a, int(m), b) for a, m, b in conn.execute(
                text("SELECT account_id, amount, bet_id FROM postings WHERE tx_id = :t"), {"t": tx_id})]
            _, seq, prev, digest = head.advance(ts, kind, table_id, round_id, actor, memo, lines)
            conn.execute(text("UPDATE ledger_tx SET chain_seq = :s, prev_hash = :p, hash = :h WHERE id = :t"),
                         {"s": seq, "p": prev, "h": digest, "t": tx_id})
        if lane == CAGE:
            conn.execute(text("UPDATE meta_kv SET value = :v WHERE key = :k"), {"v": f"{head.seq}:{head.hash}", "k": HEAD_KEY})
        else:
            conn.execute(text("UPDATE casino_tables SET ledger_seq = :s, ledger_hash = :h WHERE id = :t"),
                         {"s": head.seq, "h": head.hash, "t": lane.split(":", 1)[1]})


def _drop_tx(c: Any, tx: int) -> None:
    """A transaction deleted with its postings, the balances put back as if it had never been."""
    with _db(c).write() as conn:
        for account, amount in conn.execute(text("SELECT account_id, amount FROM postings WHERE tx_id = :t"), {"t": tx}).all():
            conn.execute(text("UPDATE accounts SET balance = balance - :m WHERE id = :a"), {"m": amount, "a": account})
        conn.execute(text("DELETE FROM postings WHERE tx_id = :t"), {"t": tx})
        conn.execute(text("DELETE FROM ledger_tx WHERE id = :t"), {"t": tx})


def test_a_withdrawal_erased_and_the_cage_lane_rehashed_is_reported(played: Any, database_url: str) -> None:
    tx = _one(played, "SELECT MAX(id) FROM ledger_tx WHERE kind = 'withdraw'")
    _drop_tx(played, tx)
    _rechain(played, "cage")
    code, out = verify(database_url)
    assert code == 1, out
    assert f"the staff log names ledger transaction {tx}, which the cage's lane does not hold (deleted)" in out, out


def test_a_settlement_erased_and_the_table_lane_rehashed_is_reported(played: Any, database_url: str) -> None:
    tx = _one(played, "SELECT MIN(id) FROM ledger_tx WHERE kind = 'settle' AND table_id = 'ruleta'")
    _drop_tx(played, tx)
    _rechain(played, "table:ruleta")
    code, out = verify(database_url)
    assert code == 1, out
    assert "table ruleta: its log record" in out and "which the ledger does not hold as recorded" in out, out


def test_a_bet_row_or_a_round_row_deleted_is_reported(played: Any, database_url: str) -> None:
    bet, round_id, _ = _lost_bet(played)
    _sql(played, ("DELETE FROM bets WHERE table_id = 'ruleta' AND bet_id = :b", {"b": bet}),
         ("DELETE FROM rounds WHERE id = :r", {"r": round_id}))
    code, out = verify(database_url)
    assert code == 1, out
    assert f"bet {bet} of table ruleta: the ledger moves money for it but there is no such bet" in out, out
    assert f"holds the hash of round record {round_id}, which the database does not have (deleted)" in out, out
