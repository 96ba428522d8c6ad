"""Punto y banca points from the second fidelity pass (issue 19)."""

from __future__ import annotations

from tapete.conformance.document import parse, settle_document

DOC = {"game": "punto-banca", "jurisdiction": "ES", "table": {"minimum": 1000},
       "events": [{"bet": {"id": "a", "player": "p-a", "kind": "player", "amount": 10000}}, {"deal": {}},
                  {"void": "exposed-card"}, {"bet": {"id": "b", "player": "p-b", "kind": "banker", "amount": 10000}}],
       "shoe": ["4D", "3C", "5S", "KH", "2D", "5C", "4S", "2H"]}


def test_annulled_coup_the_sabot_stays_001_616_001_630() -> None:
    """The punto won coup 1, so the sabot moved on (001:630); the jefe de mesa annuls the coup (001:616): the sabot
    stays where it was, and the log says so (docs/rulings.md#punto-banca-irregularities)."""
    p = parse(DOC)
    state = p.game.open(p.jurisdiction, p.table, p.shoe)
    for event in p.events[:3]:
        state = p.game.step(state, event)
    assert state.sabot_seat == 1
    log = settle_document(DOC)["log"]
    annulled = next(i for i, line in enumerate(log) if "annulled" in line)
    assert log[annulled].endswith("the sabot stays at seat 1")
    assert any("the sabot passes to seat 2" in line for line in log[:annulled])   # said before the annulment
