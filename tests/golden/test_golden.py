"""Every golden case (src/tapete/lab/golden/*.jsonl: one file per game and the worked examples), through `settle`.

A line is {"name": "<CASE-ID> what it shows", "doc": {round document}, "expect": {...}} and optionally "note"
(docs/format.md, Worked examples); `expect` holds each bet's staked/returned/status(/at_risk), optionally `house`
and `rounds`, or {"error": CODE} — here the code must match too. The comparison is the conformance kit's own
(`tapete.lab.compare`), so `tapete conformance run` and this test cannot disagree.
"""

from __future__ import annotations

import json

import pytest

from tapete.conformance.document import settle_document
from tapete.lab.cases import EXAMPLES, golden_cases, golden_files, golden_path
from tapete.lab.compare import compare


def load_cases() -> list[pytest.param]:
    cases = golden_cases()
    assert cases, "no golden cases: a broken checkout, never a reason to test less"
    return [pytest.param(c, id=f"{c.source}:{c.case_id}:{c.line}") for c in cases]


@pytest.mark.parametrize("case", load_cases())
def test_golden(case) -> None:
    answer = settle_document(case.doc)
    verdict = compare(case.expect, answer)
    assert verdict.status == "pass", (verdict.message, verdict.diffs, answer)
    if "error" not in answer:
        # docs/format.md: house.net = -sum(returned - staked) over the bets that are not pending
        settled = [b for b in answer["bets"].values() if b["status"] != "pending"]
        assert answer["house"]["net"] == -sum(b["returned"] - b["staked"] for b in settled)


def test_every_golden_file_is_valid_jsonl() -> None:
    """Issue 32: no comment lines — every non-empty line is a JSON object (a reason goes in the case's `note`)."""
    for name in golden_files():
        for n, line in enumerate((golden_path() / name).read_text(encoding="utf-8").splitlines(), 1):
            assert line.strip(), f"{name}:{n}: an empty line"
            assert isinstance(json.loads(line), dict), f"{name}:{n}"


def test_the_conformance_examples_are_part_of_the_project() -> None:
    """The worked examples that outside checkers start from ship with the package (issues 16, 32)."""
    lines = (golden_path() / EXAMPLES).read_text(encoding="utf-8").splitlines()
    names = [json.loads(x)["name"] for x in lines if x.strip()]
    assert "punto-banca-player-draws-and-wins" in names and len(names) >= 8
    ids = {p.id for p in load_cases()}
    assert all(f"examples:{name}:{n}" in ids for n, name in enumerate(names, 1))
