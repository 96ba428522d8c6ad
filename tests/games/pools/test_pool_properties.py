"""Pool invariants (hypothesis): every cent of the pool is paid, kept or carried; lower categories never pay
more; tickets are graded as an independent reading of 000:1765-1767 and 000:1839 says; state round trip."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.engine.events import Bet, Outcome
from tapete.engine.serialize import from_json, to_json
from tapete.games.lototrot import settle_day

LOTOTROT = get_game("lototrot")
percentages = st.one_of(st.integers(60, 100).map(Fraction), st.decimals("60", "100", places=2).map(Fraction))
winners = st.fixed_dictionaries({k: st.integers(0, 2000) for k in ("7", "6", "5", "4")})
options = st.fixed_dictionaries({"threshold_equal": st.sampled_from(["below", "above"]),
                                 "reserve_paid": st.sampled_from(["earlier", "all"]),
                                 "remainder": st.sampled_from(["jackpot", "organiser"])})


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 10**10), percentages, st.integers(0, 5 * 10**7), st.integers(0, 10**7), winners, options)
def test_paid_plus_house_plus_carried_equals_the_pool_to_the_cent(T, p, J, R, n, opts) -> None:
    d = settle_day(T, p, J, R, n, **opts)
    assert d.paid + d.house + d.jackpot_out + d.reserve_out == T + J + R
    assert min(d.paid, d.house, d.jackpot_out, d.reserve_out, d.remainder) >= 0
    assert d.fund >= T * p / 100 > d.fund - 1                         # at least p % to prizes, to the cent
    paid = [d.per_winner[k] for k in ("7", "6", "5", "4") if n[k]]
    assert paid == sorted(paid, reverse=True)                        # 000:1833-1835
    assert d.paid == sum(d.per_winner[k] * n[k] for k in n)
    if opts["remainder"] == "jackpot":
        assert d.remainder <= sum(n.values()) + 1                     # truncation leaves less than a cent each
    if not n["7"]:
        assert d.jackpot_out >= J                                     # the jackpot only grows until won


@st.composite
def days(draw: st.DrawFn) -> dict:
    """A jornada: random programme, scratched horses, dead heats, drawn races and tickets."""
    races = []
    for _ in range(7):
        runners = draw(st.integers(2, 14))
        scratched = draw(st.lists(st.integers(1, runners), unique=True, max_size=runners - 1))
        starters = [h for h in range(1, runners + 1) if h not in scratched]
        drawn = draw(st.booleans()) and draw(st.booleans())
        first = draw(st.lists(st.sampled_from(starters), unique=True, min_size=1, max_size=1 if drawn else 3))
        races.append({"runners": runners, "scratched": scratched, "finish": [first], "drawn": drawn})
    tickets = []
    for i in range(draw(st.integers(0, 25))):
        picks = [draw(st.integers(1, r["runners"])) for r in races]
        if draw(st.booleans()):                 # aim at the winners now and then, so categories fill
            picks = [draw(st.sampled_from(r["finish"][0])) if draw(st.booleans()) else h for h, r in zip(picks, races, strict=True)]
        tickets.append({"bet": {"id": f"t{i}", "player": f"p{i % 4}", "kind": "pick-7", "on": picks,
                                "amount": draw(st.sampled_from([50, 100, 250, 600]))}})
    table = {"minimum": 50, "prize-percentage": draw(st.sampled_from([60, 62.5, 75, 100])),
             "jackpot": draw(st.integers(0, 3 * 10**7)), "reserve": draw(st.integers(0, 10**6)),
             "threshold-equal": draw(st.sampled_from(["below", "above"])),
             "reserve-paid": draw(st.sampled_from(["earlier", "all"])), "remainder": draw(st.sampled_from(["jackpot", "organiser"]))}
    return {"game": "lototrot", "jurisdiction": "ES-IB", "table": table, "events": tickets + [{"result": {"races": races}}]}


def oracle_right(picks: list[int], races: list[dict]) -> int:
    """000:1765-1767 read afresh: walk up from the pick, past the last number back to 1, to the first starter."""
    right = 0
    for pick, race in zip(picks, races, strict=True):
        h = pick
        while h in race["scratched"]:
            h = h % race["runners"] + 1
        right += h in race["finish"][0]
    return right


@settings(max_examples=150, deadline=None)
@given(days())
def test_any_sales_and_any_result_settle_every_cent(doc: dict) -> None:
    answer = settle_document(doc)
    assert "error" not in answer, answer
    T = sum(e["bet"]["amount"] for e in doc["events"] if "bet" in e)
    J, R = doc["table"]["jackpot"], doc["table"]["reserve"]
    paid = sum(b["returned"] for b in answer["bets"].values())
    carry = answer["carry"]
    assert paid + answer["house"]["commission"] + carry["jackpot"] + carry["reserve"] == T + J + R
    races = doc["events"][-1]["result"]["races"]
    rights = {e["bet"]["id"]: oracle_right(e["bet"]["on"], races) for e in doc["events"] if "bet" in e}
    by_category: dict[int, set[int]] = {}
    for bet_id, right in rights.items():
        returned = answer["bets"][bet_id]["returned"]
        if right < 4:
            assert returned == 0
        else:
            by_category.setdefault(right, set()).add(returned)
    assert all(len(v) == 1 for v in by_category.values())             # equal shares in a category (000:1831)


@settings(max_examples=40, deadline=None)
@given(days())
def test_state_round_trips_and_step_stays_pure(doc: dict) -> None:
    state = LOTOTROT.open("ES-IB", doc["table"])
    for e in doc["events"]:
        if "bet" in e:
            b = e["bet"]
            event = Bet(b["id"], b["player"], b["kind"], b["amount"], tuple(b["on"]))
        else:
            event = Outcome("result", e["result"])
        before = json.dumps(to_json(state))
        old, state = state, LOTOTROT.step(state, event)
        assert json.dumps(to_json(old)) == before            # step is pure without a deep copy
        assert from_json(LOTOTROT.state_type(), json.loads(json.dumps(to_json(state)))) == state


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(20, 1000), st.integers(0, 10**6)), max_size=20))
def test_promotrot_prizes_plus_house_share_equal_the_takings(plays: list[tuple[int, int]]) -> None:
    events = [{"bet": {"id": f"t{i}", "player": "p", "kind": "ticket", "amount": a}} for i, (a, _) in enumerate(plays)]
    events.append({"result": {"prizes": {f"t{i}": prize for i, (_, prize) in enumerate(plays)}}})
    answer = settle_document({"game": "promotrot", "jurisdiction": "ES-IB", "table": {"minimum": 20}, "events": events})
    sales = sum(a for a, _ in plays)
    paid = sum(p for _, p in plays)
    assert sum(b["returned"] for b in answer["bets"].values()) == paid
    assert paid + answer["house"]["net"] == sales and answer["house"]["commission"] == 0
