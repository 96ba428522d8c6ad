"""Lototrot and Promotrot through the CLI (`pool`, `rules`, `diff`, `edge`, `games`), the carried amounts of the
golden cases, and the error documents for invalid tickets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tapete.catalog import get_game
from tapete.cli import app
from tapete.conformance.document import settle_document
from tapete.lab.cases import golden_path

runner = CliRunner()
GOLDEN = golden_path()
RACES = [{"runners": 10, "finish": [[3]]}, {"runners": 10, "finish": [[5]]}, {"runners": 10, "finish": [[4, 7]]},
         {"runners": 10, "finish": [[1]]}, {"runners": 10, "scratched": [8], "finish": [[9]]},
         {"runners": 6, "scratched": [6], "finish": [[1]]}, {"runners": 10, "finish": [[6]]}]
POOL = {"staked": 20_000_000, "winners": {"7": 1, "6": 8, "5": 120, "4": 1500}}


def golden(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("case", [c for c in golden("lototrot.jsonl") if "carry" in c["expect"]], ids=lambda c: c["name"].split()[0])
def test_golden_carried_amounts(case: dict) -> None:
    assert settle_document(case["doc"])["carry"] == case["expect"]["carry"]


def test_every_spec_case_has_a_golden_or_unit_test() -> None:
    names = " ".join(c["name"] for f in ("bingo.jsonl", "lototrot.jsonl", "promotrot.jsonl") for c in golden(f))
    tests = " ".join(p.read_text(encoding="utf-8") for p in Path(__file__).parents[1].glob("*/test_*.py"))
    for case in [f"L{i}" for i in range(1, 12)] + ["P1", "P2", "P3"] + [f"B{i}" for i in range(1, 7)]:
        assert f"{case} " in names or f"test_{case}_" in tests, case


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    tickets = [{"id": "A", "player": "ana", "on": [3, 5, 7, 1, 8, 1, 6], "amount": 100},
               {"id": "B", "player": "bea", "on": [3, 5, 4, 1, 10, 2, 6], "amount": 100},
               {"id": "C", "player": "carlos", "on": [2, 5, 4, 2, 8, 6, 5], "amount": 200},
               {"id": "D", "player": "dani", "on": [3, 4, 5, 1, 7, 3, 6], "amount": 100}]
    t, r = tmp_path / "tickets.json", tmp_path / "result.json"
    t.write_text(json.dumps(tickets))
    r.write_text(json.dumps({"races": RACES, "pool": POOL}))
    return t, r


def test_pool_lototrot_prints_the_prize_table(files: tuple[Path, Path]) -> None:
    t, r = files
    result = runner.invoke(app, ["pool", "lototrot", "--tickets", str(t), "--result", str(r), "--jackpot", "40000",
                                 "--date", "2006-03-05", "--lang", "en"])
    assert result.exit_code == 0, result.stdout
    out = result.stdout
    assert "€76,000.00" in out and "€3,000.00" in out and "€200.00" in out and "€24.00" in out
    assert "2006-04-04" in out and "race 5: scratched 8; winner 9" in out


def test_pool_lototrot_json_is_the_engine_settlement(files: tuple[Path, Path]) -> None:
    t, r = files
    result = runner.invoke(app, ["pool", "lototrot", "--tickets", str(t), "--result", str(r), "--jackpot", "40000", "--json"])
    report = json.loads(result.stdout)
    assert report["settlement"] == settle_document(report["document"])
    assert [c["per_winner"] for c in report["categories"]] == [7_600_000, 300_000, 20_000, 2_400]
    assert {t["id"]: (t["right"], t["prize"]) for t in report["tickets"]} == \
        {"A": (7, 7_600_000), "B": (5, 20_000), "C": (4, 2_400), "D": (3, 0)}
    assert report["tickets"][0]["paid_at"] == "Central Prize Office only"
    assert report["tickets"][0]["paid_by"] == "nominative cheque"
    m = report["money"]
    assert m["staked"] == 20_000_000 and m["organiser"] == 8_000_000 and m["jackpot_out"] == 0


def test_pool_lototrot_jsonl_tickets_and_a_round_document(tmp_path: Path, files: tuple[Path, Path]) -> None:
    t, r = files
    lines = tmp_path / "tickets.jsonl"
    lines.write_text("\n".join(json.dumps(x) for x in json.loads(t.read_text())))
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps({"game": "lototrot", "jurisdiction": "ES-IB", "table": {"minimum": 50, "jackpot": 4_000_000},
                               "events": [{"bet": {**x, "kind": "pick-7"}} for x in json.loads(t.read_text())]}))
    for path in (lines, doc):
        result = runner.invoke(app, ["pool", "lototrot", "--tickets", str(path), "--result", str(r), "--json",
                                     *(["--jackpot", "40000"] if path is lines else [])])
        assert json.loads(result.stdout)["categories"][0]["per_winner"] == 7_600_000


@pytest.mark.parametrize("args, code", [
    (["--percentage", "55"], "bad-table"),
    (["--jackpot", "abc"], "bad-document"),
    (["--date", "yesterday"], "bad-document"),
])
def test_pool_lototrot_errors_are_documents(files: tuple[Path, Path], args: list[str], code: str) -> None:
    t, r = files
    result = runner.invoke(app, ["pool", "lototrot", "--tickets", str(t), "--result", str(r), "--json", *args])
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["code"] == code


def test_pool_lototrot_refuses_a_horse_not_in_the_race(tmp_path: Path, files: tuple[Path, Path]) -> None:
    _, r = files
    t = tmp_path / "bad.json"
    t.write_text(json.dumps([{"id": "X", "on": [3, 5, 7, 1, 8, 7, 6], "amount": 100}]))     # race 6 has 6 runners
    result = runner.invoke(app, ["pool", "lototrot", "--tickets", str(t), "--result", str(r), "--json"])
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == 2 and error["code"] == "bad-target" and error["bet"] == "X"


def test_games_rules_diff_edge_know_the_pools() -> None:
    listed = {g["id"]: g for g in json.loads(runner.invoke(app, ["games", "--json"]).stdout)["games"]}
    assert listed["lototrot"]["jurisdictions"] == ["ES-IB"] and listed["promotrot"]["jurisdictions"] == ["ES-IB"]
    assert listed["bingo"]["jurisdictions"] == ["ES", "ES-IB"] and listed["bingo"]["verbs"] == ["line", "bingo"]
    keys = {k["key"] for k in listed["lototrot"]["table"]}
    assert {"minimum", "prize-percentage", "jackpot", "reserve", "threshold-equal", "reserve-paid", "remainder"} <= keys
    rules = json.loads(runner.invoke(app, ["rules", "lototrot", "-j", "ES-IB", "--json"]).stdout)["rules"]
    assert {r["rule"]: r["source"] for r in rules}["split_above"] == "000:1815-1825"
    wrong = runner.invoke(app, ["rules", "lototrot", "-j", "ES", "--json"])
    assert wrong.exit_code == 2 and json.loads(wrong.stdout)["error"]["code"] == "game-not-in-jurisdiction"
    alone = runner.invoke(app, ["diff", "promotrot", "--json"])     # only ES-IB has it: refused (issue 28 point 4)
    assert alone.exit_code == 2 and json.loads(alone.stdout)["error"]["code"] == "nothing-to-compare"
    for game, kind, edge in (("lototrot", "pick-7", "2/5"), ("promotrot", "ticket", "3/10")):
        bets = json.loads(runner.invoke(app, ["edge", game, "-j", "ES-IB", "--json"]).stdout)["bets"]
        assert bets == [{"kind": kind, "option": bets[0]["option"], "house_edge": edge,
                         "house_edge_percent": float(edge.split("/")[0]) * 100 / float(edge.split("/")[1]), "method": "exact"}]
    for game in ("bingo", "lototrot", "promotrot"):
        for rules_ in get_game(game).rules.values():
            assert rules_.missing_sources() == []


def test_every_ruling_the_three_games_cite_is_written() -> None:
    import re

    root = Path(__file__).parents[3]
    written = set()
    doc = root / "docs" / "rulings.md"
    written |= set(re.findall(r"^##+ (\S+)\s*$", doc.read_text(encoding="utf-8"), re.M))
    for game in ("bingo", "lototrot", "promotrot"):
        assert (root / "docs" / "games" / f"{game}.md").exists()
        for rules in get_game(game).rules.values():
            for source in rules.sources.values():
                for anchor in re.findall(r"docs/rulings\.md#([\w-]+)", source):
                    assert anchor in written, (game, anchor)
