"""A live (croupier-keyed) table and the table chief: keyed results with a preview, corrections, void spins
relaunched, limit changes where the jurisdiction allows them; fairness records and the audit log."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

LIVE = {"id": "vivo", "game": "roulette-french", "jurisdiction": "ES-IB", "source": "croupier", "auto": False,
        "table": {"minimum": 100}}
ELECTRONIC = {"id": "rng", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}


def test_keyed_result_preview_correction_confirmation(make_casino: Any, database_url: str) -> None:
    c = make_casino([LIVE], database_url)
    c.post("croupier", "/api/tables/vivo/open", key=None)
    s17 = c.bet("ana", "vivo", {"kind": "straight", "on": [17], "amount": 500})["bets"][0]["id"]
    red = c.bet("ana", "vivo", {"kind": "red", "amount": 1000})["bets"][0]["id"]
    black = c.bet("luis", "vivo", {"kind": "black", "amount": 1000})["bets"][0]["id"]
    keyed = c.post("croupier", "/api/tables/vivo/outcome", {"value": 14})
    assert keyed["phase"] == "confirming"
    assert keyed["preview"]["bets"][red]["status"] == "won" and keyed["preview"]["bets"][black]["status"] == "lost"
    assert c.balance("ana") == 100_000 - 1500                     # nothing booked before confirmation
    c.post("croupier", "/api/tables/vivo/correct", {"value": 17, "reason": "the ball fell in 17"}, expect=403)   # the chief corrects
    missing = c.post("jefe", "/api/tables/vivo/correct", {"value": 17}, expect=422)     # never without its reason
    assert "reason" in missing["error"]["message"]
    fixed = c.post("jefe", "/api/tables/vivo/correct", {"value": 17, "reason": "the ball fell in 17"})
    assert fixed["preview"]["bets"][s17]["returned"] == 18_000
    assert fixed["preview"]["bets"][black]["status"] == "won"
    done = c.post("croupier", "/api/tables/vivo/confirm")
    assert done["bets"][s17]["returned"] == 18_000 and done["bets"][red]["returned"] == 0
    assert c.balance("ana") == 100_000 - 1500 + 18_000
    assert c.balance("luis") == 100_000 + 1000
    assert c.get("ana", "/api/tables/vivo")["history"][-1] == 17
    log = c.get("inspector", "/api/tables/vivo/log")
    assert log["chain"]["ok"]
    correction = [r for r in log["records"] if r["kind"] == "correct"][0]
    assert correction["actor"] == "jefe" and correction["data"]["was"] == {"spin": 14}
    c.ledger()


def test_void_spin_is_relaunched_and_bets_ride(make_casino: Any, database_url: str) -> None:
    c = make_casino([LIVE], database_url)
    c.post("croupier", "/api/tables/vivo/open", key=None)
    b = c.bet("eva", "vivo", {"kind": "dozen", "on": [1], "amount": 1000})["bets"][0]["id"]
    c.post("croupier", "/api/tables/vivo/close")
    c.post("croupier", "/api/tables/vivo/outcome", {"value": 30})
    voided = c.post("jefe", "/api/tables/vivo/void", {"reason": "ball-out"})
    assert voided["phase"] == "closed" and voided["relaunch"]           # the ball is relaunched, the bet rides
    c.bet("ana", "vivo", {"kind": "red", "amount": 100}, expect=409)   # no bets while the relaunch is due
    c.post("croupier", "/api/tables/vivo/outcome", {"value": 5})
    done = c.post("croupier", "/api/tables/vivo/confirm")
    assert done["bets"][b]["returned"] == 3000
    assert c.balance("eva") == 102_000
    c.ledger()


def test_limit_change_where_the_jurisdiction_allows(make_casino: Any, sqlite_url: str) -> None:
    national = {**LIVE, "id": "nacional", "jurisdiction": "ES"}
    c = make_casino([LIVE, national], sqlite_url)
    refused = c.post("jefe", "/api/tables/nacional/limits", {"values": {"minimum": 200}}, expect=422)
    assert refused["error"]["code"] == "illegal-action" and "001:145-147" in refused["error"]["message"]
    c.post("jefe", "/api/tables/vivo/limits", {"values": {"minimum": 200}})   # ES-IB: after three more spins (000:174-176)
    for spin in range(3):
        c.post("croupier", "/api/tables/vivo/open", key=None)
        c.bet("ana", "vivo", {"kind": "straight", "on": [spin], "amount": 100})   # the old minimum still holds
        c.post("croupier", "/api/tables/vivo/outcome", {"value": 36})
        c.post("croupier", "/api/tables/vivo/confirm")
    assert c.get(None, "/api/tables")["tables"][0]["limits"]["minimum"] == 200
    c.post("croupier", "/api/tables/vivo/open", key=None)
    assert c.bet("ana", "vivo", {"kind": "straight", "on": [1], "amount": 100}, expect=422)["error"]["code"] == "under-minimum"
    c.bet("ana", "vivo", {"kind": "straight", "on": [1], "amount": 200})
    c.ledger()


def test_prison_bet_carries_to_the_next_spin(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([LIVE], sqlite_url)
    c.post("croupier", "/api/tables/vivo/open", key=None)
    b = c.bet("ana", "vivo", {"kind": "red", "amount": 1000})["bets"][0]["id"]
    c.post("croupier", "/api/tables/vivo/outcome", {"value": 0})
    done = c.post("croupier", "/api/tables/vivo/confirm")
    assert done["pending"] == [b]
    c.post("ana", "/api/tables/vivo/acts", {"bet": b, "do": "prison"})
    c.post("croupier", "/api/tables/vivo/open", key=None)
    c.post("croupier", "/api/tables/vivo/outcome", {"value": 1})       # red: freed, the stake back, no winnings
    done = c.post("croupier", "/api/tables/vivo/confirm")
    assert done["bets"][b]["returned"] == 1000 and c.balance("ana") == 100_000
    assert c.ledger()["house_accounts"]["stakes:vivo"] == 0


def tapete(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The `tapete` command, run in-process (Typer's runner): exit code and standard output."""
    from typer.testing import CliRunner

    from tapete.cli import app

    result = CliRunner().invoke(app, list(args), env=env)
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, "")


def test_fairness_verify_and_audit_export(make_casino: Any, sqlite_url: str, tmp_path: Path) -> None:
    c = make_casino([ELECTRONIC], sqlite_url)
    c.post("croupier", "/api/tables/rng/open", key=None)
    opened = c.get("ana", "/api/tables/rng")
    c.bet("ana", "rng", {"kind": "straight", "on": [3], "amount": 100}, {"kind": "black", "amount": 500})
    c.post("croupier", "/api/tables/rng/close")
    c.post("croupier", "/api/tables/rng/draw")
    rid = c.get("ana", "/api/rounds?table=rng")["rounds"][0]["id"]
    record = c.get("luis", f"/api/rounds/{rid}")
    assert record["commitment"] == opened["commitment"] and record["seed"]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record))
    ok = tapete("verify", str(path))
    assert ok.returncode == 0, ok.stdout
    assert {ch["check"] for ch in json.loads(ok.stdout)["checks"]} == {"commitment", "draw 0", "settlement"}
    forged = dict(record, draws=[{**record["draws"][0], "outcome": {"spin": (record["draws"][0]["outcome"]["spin"] + 1) % 37}}])
    path.write_text(json.dumps(forged))
    assert tapete("verify", str(path)).returncode == 1
    path.write_text(json.dumps(dict(record, seed="00" * 32)))
    assert tapete("verify", str(path)).returncode == 1

    export = tmp_path / "audit.jsonl"
    run = tapete("audit", "export", "--out", str(export), env={"TAPETE_DATABASE_URL": sqlite_url})
    assert run.returncode == 0, run.stderr
    lines = export.read_text().splitlines()
    kinds = [json.loads(line)["kind"] for line in lines]
    assert kinds[0] == "table" and {"open", "bet", "close", "outcome", "settlement"} <= set(kinds)
    assert tapete("audit", "verify", str(export)).returncode == 0
    tampered = [json.loads(line) for line in lines]
    bet = next(r for r in tampered if r["kind"] == "bet")
    bet["data"]["event"]["bet"]["amount"] = 1
    export.write_text("\n".join(json.dumps(r) for r in tampered))
    bad = tapete("audit", "verify", str(export))
    assert bad.returncode == 1 and json.loads(bad.stdout)["seq"] == bet["seq"]
