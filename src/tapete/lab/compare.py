"""What a conformance case expects against what a system answered: pass, fail (with a per-bet diff) or error.

`fail` is a wrong answer (an amount, a status, an error code); `error` is no answer at all (the system crashed,
timed out, or wrote something that is neither a settlement nor an error document). Shared with tapete's own golden
test (tests/golden/test_golden.py), so the kit and the project judge a case the same way.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

BET_FIELDS = ("staked", "returned", "status", "at_risk")


@dataclass(frozen=True)
class Diff:
    """One value that differs: `bet` is a bet id, or "(house)", "(rounds)", "(error)", "(bets)"."""
    bet: str
    field: str
    expected: Any
    got: Any

    def text(self) -> str:
        return f"{self.bet}.{self.field}: expected {_show(self.expected)}, got {_show(self.got)}"


@dataclass
class Verdict:
    status: str                     # pass | fail | error
    message: str = ""
    diffs: list[Diff] = field(default_factory=list)

    def document(self) -> dict[str, Any]:
        return {"status": self.status, "message": self.message,
                "diffs": [{k: (None if v is _ABSENT else v) for k, v in asdict(d).items()} for d in self.diffs]}


def _show(value: Any) -> str:
    return "(absent)" if value is _ABSENT else repr(value) if isinstance(value, str) else str(value)


_ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "(absent)"})()


def same_status(got: object, want: object) -> bool:
    """A bet handed back whole reads `push` or `void` (docs/format.md): either one matches the other."""
    return got == want or {got, want} <= {"push", "void"}


def shape_error(answer: object) -> str | None:
    """Why an answer is neither a settlement nor an error document (None when it is one of them)."""
    if not isinstance(answer, dict):
        return "the answer is not a JSON object"
    if "error" in answer:
        err = answer["error"]
        return None if isinstance(err, dict) and isinstance(err.get("code"), str) else "error without a code"
    if not isinstance(answer.get("bets"), dict):
        return "a settlement has an object 'bets'"
    if not all(isinstance(b, dict) for b in answer["bets"].values()):
        return "each of a settlement's bets is an object"
    return None


def compare(expect: dict[str, Any], answer: object) -> Verdict:
    problem = shape_error(answer)
    if problem:
        return Verdict("error", problem)
    assert isinstance(answer, dict)
    if "error" in expect:
        got = answer["error"]["code"] if "error" in answer else None
        if got == expect["error"]:
            return Verdict("pass")
        message = f"expected the error {expect['error']!r}, got " + (f"the error {got!r}" if got else "a settlement")
        return Verdict("fail", message, [Diff("(error)", "code", expect["error"], got if got else "settlement")])
    if "error" in answer:
        code = answer["error"]["code"]
        return Verdict("fail", f"expected a settlement, got the error {code!r}: {answer['error'].get('message', '')}",
                       [Diff("(error)", "code", None, code)])
    diffs: list[Diff] = []
    for bet_id, want in expect.get("bets", {}).items():
        got = answer["bets"].get(bet_id)
        if got is None:
            diffs.append(Diff(bet_id, "(bet)", "settled", _ABSENT))
            continue
        for key, value in want.items():
            have = got.get(key, _ABSENT)
            if not (same_status(have, value) if key == "status" else have == value):
                diffs.append(Diff(bet_id, key, value, have))
    house = answer.get("house") if isinstance(answer.get("house"), dict) else {}
    for key, value in expect.get("house", {}).items():
        if house.get(key, _ABSENT) != value:
            diffs.append(Diff("(house)", key, value, house.get(key, _ABSENT)))
    if "rounds" in expect and answer.get("rounds", _ABSENT) != expect["rounds"]:
        diffs.append(Diff("(rounds)", "rounds", expect["rounds"], answer.get("rounds", _ABSENT)))
    if diffs:
        return Verdict("fail", "; ".join(d.text() for d in diffs), diffs)
    return Verdict("pass")
