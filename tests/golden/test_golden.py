"""Every golden case under tests/golden/*.jsonl and tests/conformance/examples/*.jsonl, through `settle`.

A line is {"name": "<CASE-ID> what it shows", "doc": {round document}, "expect": {...}} (docs/format.md,
Worked examples); `expect` holds each bet's staked/returned/status(/at_risk), optionally `house` and `rounds`,
or {"error": CODE} — here the code must match too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapete.conformance.document import settle_document

HERE = Path(__file__).parent
EXAMPLES = HERE.parent / "conformance" / "examples"


def case_files() -> list[Path]:
    """Both folders are part of the project: a missing one is a broken checkout, never a reason to test less."""
    files = sorted(HERE.glob("*.jsonl")), sorted(EXAMPLES.glob("*.jsonl"))
    assert all(files), f"no golden cases under {HERE} or {EXAMPLES}"
    return files[0] + files[1]


def load_cases() -> list[pytest.param]:
    cases = []
    for path in case_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not line.startswith("//"):
                case = json.loads(line)
                cases.append(pytest.param(case, id=f"{path.stem}:{case['name'].split()[0]}:{n}"))
    return cases


def same_status(got: str | None, want: str) -> bool:
    return got == want or {got, want} <= {"push", "void"}


@pytest.mark.parametrize("case", load_cases())
def test_golden(case: dict) -> None:
    answer = settle_document(case["doc"])
    expect = case["expect"]
    if "error" in expect:
        assert "error" in answer, f"expected error {expect['error']}, got {answer}"
        assert answer["error"]["code"] == expect["error"], answer
        return
    assert "error" not in answer, answer
    for bet_id, want in expect["bets"].items():
        got = answer["bets"][bet_id]
        for key, value in want.items():
            if key == "status":
                assert same_status(got.get("status"), value), (bet_id, got, want)
            else:
                assert got.get(key) == value, (bet_id, key, got, want)
    if "house" in expect:
        for key, value in expect["house"].items():
            assert answer["house"][key] == value, answer["house"]
    if "rounds" in expect:
        assert answer["rounds"] == expect["rounds"]
    # docs/format.md: house.net = -sum(returned - staked) over the bets that are not pending
    settled = [b for b in answer["bets"].values() if b["status"] != "pending"]
    assert answer["house"]["net"] == -sum(b["returned"] - b["staked"] for b in settled)


def test_the_conformance_examples_are_part_of_the_project() -> None:
    """The worked examples that outside checkers start from ship with the tests (issue 16)."""
    names = [json.loads(x)["name"] for x in (EXAMPLES / "cases.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    assert "punto-banca-player-draws-and-wins" in names and len(names) >= 8
    ids = {p.id for p in load_cases()}
    assert all(f"cases:{name}:{n}" in ids for n, name in enumerate(names, 1))
