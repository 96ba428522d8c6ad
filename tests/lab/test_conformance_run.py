"""Issue 32, point 2: `tapete conformance run` against tapete itself (every case passes, by command and by URL,
and through `tapete conformance serve`) and against deliberately faulty systems — a straight paid 36 to 1, Andalucía's
trente et quarante settled as the national rule, one that crashes, one that times out — each caught and named, with
the right cases and the right per-bet diffs, in the terminal, in --json and in JUnit XML."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from tapete.cli import app
from tapete.conformance.document import settle_document
from tapete.lab.cases import golden_cases
from tapete.lab.compare import compare

from .conftest import endpoint

runner = CliRunner()
TAPETE = f"{sys.executable} -c 'from tapete.cli import main; main()' settle -"


def run(kit: Path | str, against: str, *args: str) -> tuple[int, dict[str, Any]]:
    """The run's JSON; a generous per-case timeout unless the test sets one (a loaded machine is slow, not wrong)."""
    timeout = () if "--timeout" in args else ("--timeout", "120")
    result = runner.invoke(app, ["conformance", "run", str(kit), "--against", against, "--json", *args, *timeout])
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)


def not_passing(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in doc["cases"] if c["status"] != "pass"}


# -- tapete against itself -------------------------------------------------------------------------------------------
def test_tapete_passes_its_whole_kit_over_http(kit: Path, tmp_path: Path) -> None:
    with endpoint() as url:
        code, doc = run(kit, url, "--jobs", "4", "--junit", str(tmp_path / "junit.xml"))
    assert code == 0, not_passing(doc)
    assert doc["summary"]["total"] == {"cases": len(golden_cases()), "pass": len(golden_cases()), "fail": 0, "error": 0}
    assert set(doc["summary"]["games"]) >= {"roulette-french", "trente-quarante", "craps", "blackjack"}
    root = ET.parse(tmp_path / "junit.xml").getroot()
    assert root.get("tests") == str(len(golden_cases())) and root.get("failures") == "0" and root.get("errors") == "0"


def test_tapete_settle_as_a_command_passes(kit: Path) -> None:
    code, doc = run(kit / "cases" / "trente-quarante" / "ES-AN.jsonl", TAPETE, "--case", "TQ-0", "--timeout", "300")
    assert code == 0 and doc["summary"]["total"]["cases"] >= 8, not_passing(doc)


def test_conformance_serve_is_the_reference_endpoint(kit: Path) -> None:
    server = subprocess.Popen([sys.executable, "-c", "from tapete.cli import main; main()", "conformance", "serve",
                               "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()           # "... POST round documents to http://127.0.0.1:PORT/settle ..."
        url = line.split("to ")[1].split()[0]
        base = url.removesuffix("/settle")
        with urllib.request.urlopen(base + "/", timeout=10) as reply:
            assert json.loads(reply.read())["protocol"] == "tapete-conformance/1"
        code, doc = run(kit / "cases" / "roulette-french" / "ES.jsonl", url)
        assert code == 0 and doc["summary"]["total"]["fail"] == 0 and doc["summary"]["total"]["cases"] > 50
        bad = urllib.request.Request(url, data=b"{not json", method="POST")
        with urllib.request.urlopen(bad, timeout=10) as reply:
            assert json.loads(reply.read())["error"]["code"] == "bad-document"
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- faulty systems ------------------------------------------------------------------------------------------------
def straight_36_to_1(doc: Any) -> Any:
    """Pays a winning straight 36 to 1 instead of 35 to 1."""
    answer = settle_document(doc)
    kinds = {e["bet"]["id"]: e["bet"]["kind"] for e in doc.get("events", []) if isinstance(e, dict) and "bet" in e}
    for bet_id, bet in answer.get("bets", {}).items():
        if kinds.get(bet_id) == "straight" and bet["returned"] > bet["staked"]:
            bet["returned"] += bet["staked"]
    return answer


def andalusian_trente_quarante_as_national(doc: Any) -> Any:
    """Settles ES-AN trente et quarante by the national (ES) rules: the 31-31 default, prison, the lock."""
    if doc.get("game") == "trente-quarante" and doc.get("jurisdiction") == "ES-AN":
        answer = settle_document({**doc, "jurisdiction": "ES"})
        if "jurisdiction" in answer:
            answer["jurisdiction"] = "ES-AN"
        return answer
    return settle_document(doc)


def expected_failures(kit_file: Path, system: Any) -> set[str]:
    """The cases of a kit file the system gets wrong, found independently of the runner."""
    cases = [json.loads(line) for line in kit_file.read_text(encoding="utf-8").splitlines()]
    return {c["name"] for c in cases if compare(c["expect"], system(c["doc"])).status != "pass"}


def test_a_straight_paid_36_to_1_is_caught_case_by_case(kit: Path, tmp_path: Path) -> None:
    path = kit / "cases" / "roulette-french" / "ES.jsonl"
    with endpoint(straight_36_to_1) as url:
        code, doc = run(path, url, "--junit", str(tmp_path / "j.xml"))
    assert code == 1
    failed = not_passing(doc)
    assert set(failed) == expected_failures(path, straight_36_to_1) and len(failed) >= 3
    assert all(c["status"] == "fail" for c in failed.values())
    fr01 = failed["FR-01 straight 17 wins 35:1 (ES)"]
    assert fr01["diffs"] == [{"bet": "b1", "field": "returned", "expected": 36000, "got": 37000}]
    assert "FR-03 split 8/11 wins 17:1 (ES)" not in failed
    assert doc["summary"]["articles"]["001:81-103"]["fail"] == len(failed)     # the payouts' article
    junit = ET.parse(tmp_path / "j.xml").getroot()
    failures = {tc.get("name"): tc.find("failure").text for tc in junit.iter("testcase") if tc.find("failure") is not None}
    assert set(failures) == set(failed)
    assert "b1.returned: expected 36000, got 37000" in failures["FR-01 straight 17 wins 35:1 (ES)"]


def test_andalusian_trente_quarante_settled_as_national_is_caught(kit: Path) -> None:
    path = kit / "cases" / "trente-quarante" / "ES-AN.jsonl"
    with endpoint(andalusian_trente_quarante_as_national) as url:
        code, doc = run(path, url)
    assert code == 1
    failed = not_passing(doc)
    assert set(failed) == expected_failures(path, andalusian_trente_quarante_as_national)
    assert all(name.endswith("(ES-AN)") for name in failed)
    tie = failed["TQ-06 31-31, no choice made: half returned by default (ES-AN)"]
    assert {"bet": "n", "field": "status", "expected": "lost", "got": "pending"} in tie["diffs"]
    assert doc["summary"]["articles"]["003:1123-1127"]["fail"] >= 1     # the Andalusian article the ES reading breaks
    assert not [a for a, c in doc["summary"]["articles"].items() if c["fail"] and not a.startswith(("003:", "rulings#"))]
    with endpoint(andalusian_trente_quarante_as_national) as url:     # the national cases still pass
        assert run(kit / "cases" / "trente-quarante" / "ES.jsonl", url)[0] == 0


def with_a_bet_of_kind(kit_file: Path, kind: str, name: str) -> set[str]:
    cases = [json.loads(line) for line in kit_file.read_text(encoding="utf-8").splitlines()]
    return {c["name"] for c in cases if name in c["name"]
            and any("bet" in e and e["bet"]["kind"] == kind for e in c["doc"]["events"])}


CRASHER = """
import json, sys
from tapete.conformance.document import settle_document
doc = json.load(sys.stdin)
if any("bet" in e and e["bet"]["kind"] == "split" for e in doc["events"]):
    raise RuntimeError("split bets are not implemented")
print(json.dumps(settle_document(doc)))
"""


def test_a_system_that_crashes_is_an_error_named_with_its_case(kit: Path, tmp_path: Path) -> None:
    script = tmp_path / "crasher.py"
    script.write_text(CRASHER, encoding="utf-8")
    code, doc = run(kit / "cases" / "roulette-french" / "ES.jsonl", f"{sys.executable} {script}", "--case", "FR-0",
                    "--timeout", "300")
    assert code == 1
    failed = not_passing(doc)
    assert set(failed) == with_a_bet_of_kind(kit / "cases" / "roulette-french" / "ES.jsonl", "split", "FR-0")
    assert "FR-03 split 8/11 wins 17:1 (ES)" in failed
    assert all(c["status"] == "error" for c in failed.values())
    assert "exited with 1: RuntimeError: split bets are not implemented" in failed["FR-03 split 8/11 wins 17:1 (ES)"]["message"]
    assert "FR-01 straight 17 wins 35:1 (ES)" not in failed
    assert doc["summary"]["total"]["error"] == len(failed) and doc["summary"]["total"]["pass"] >= 3


def slow_on_corners(doc: Any) -> Any:
    if any(isinstance(e, dict) and "bet" in e and e["bet"].get("kind") == "corner" for e in doc.get("events", [])):
        time.sleep(120)         # far beyond the run's --timeout; the endpoint's threads are daemons
    return settle_document(doc)


def test_a_system_that_times_out_is_an_error_per_case(kit: Path) -> None:
    with endpoint(slow_on_corners) as url:
        code, doc = run(kit / "cases" / "roulette-french" / "ES.jsonl", url, "--case", "FR-0", "--timeout", "20")
    assert code == 1
    failed = not_passing(doc)
    assert set(failed) == with_a_bet_of_kind(kit / "cases" / "roulette-french" / "ES.jsonl", "corner", "FR-0")
    assert failed and all(c["status"] == "error" and "timed out after 20 s" in c["message"] for c in failed.values())
    assert any("corner" in name for name in failed)
    assert doc["summary"]["total"]["pass"] >= 3


def test_the_terminal_report_names_the_cases_and_the_diffs(kit: Path) -> None:
    with endpoint(straight_36_to_1) as url:
        result = runner.invoke(app, ["conformance", "run", str(kit / "cases" / "roulette-french" / "ES.jsonl"),
                                     "--against", url, "--case", "FR-0"])
    assert result.exit_code == 1
    assert "FAIL roulette-french/ES FR-01 straight 17 wins 35:1 (ES)" in result.output
    assert "    b1.returned: expected 36000, got 37000" in result.output
    assert "roulette-french" in result.output and "articles of the cases that did not pass" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["/no/such/kit", "--against", "x"], "no such kit"),
    (["{kit}", "--against", ""], "--against"),
    (["{kit}", "--against", "x", "--timeout", "0"], "--timeout"),
    (["{kit}", "--against", "x", "--case", "NO-SUCH-CASE"], "matches"),
    (["{bad}", "--against", "x"], "not valid"),
])
def test_bad_input_exits_2(kit: Path, tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "bad.jsonl").write_text('{"name": "x"}\n', encoding="utf-8")
    args = [a.format(kit=kit, bad=tmp_path / "bad.jsonl") for a in args]
    result = runner.invoke(app, ["conformance", "run", *args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
