"""The simulation kernel against the engine: seeded shoes replayed coup by coup through `settle`."""

from __future__ import annotations

from fractions import Fraction

from tapete.analysis.baccarat import punto_banca_distribution
from tapete.analysis.baccarat_sim import shoe_sample, simulate_counts
from tapete.conformance.document import settle_document
from tapete.core.rng import simulation_stream


def test_the_kernel_plays_the_same_coups_as_the_engine() -> None:
    for sample in shoe_sample(seed=11, coups=150):
        events = []
        for i, _ in enumerate(sample.coups):
            events += [{"bet": {"id": f"p{i}", "player": "x", "kind": "player", "amount": 100}},
                       {"bet": {"id": f"t{i}", "player": "x", "kind": "tie", "amount": 100}}, {"deal": {}}]
        doc = {"game": "punto-banca", "jurisdiction": "ES-IB", "table": {"minimum": 100, "cut-card": len(sample.cards) - 7},
               "shoe": sample.cards, "events": events}
        answer = settle_document(doc)
        assert "error" not in answer, answer
        position = 0
        for i, (start, used, player, bank) in enumerate(sample.coups):
            assert start == position
            cards = sample.cards[start:start + used]
            want_player = 200 if player > bank else 100 if player == bank else 0
            assert answer["bets"][f"p{i}"]["returned"] == want_player, (i, cards, player, bank)
            assert answer["bets"][f"t{i}"]["returned"] == (900 if player == bank else 0)
            position += used
        assert answer["rounds"] == len(sample.coups)


def test_the_last_coup_of_a_full_shoe_is_the_one_that_reaches_the_stop_card() -> None:
    sample = shoe_sample(seed=3, coups=70)[0]
    start, used, _, _ = sample.coups[-1]
    cut = len(sample.cards) - 7
    assert start <= cut < start + used                   # started before the stop card, reached it


def test_simulated_frequencies_bracket_the_exact_ones() -> None:
    counts, shoes = simulate_counts(2_000_000, simulation_stream(5, 0))
    assert counts.sum() == 2_000_000 and 30_000 < shoes < 36_000
    exact = punto_banca_distribution()
    for outcome in ("player", "tie"):
        p = sum((q for (pt, _, bt, _), q in exact.items() if (pt > bt if outcome == "player" else pt == bt)), Fraction(0))
        seen = sum(int(counts[a, b]) for a in range(10) for b in range(10) if (a > b if outcome == "player" else a == b))
        sd = (float(p) * (1 - float(p)) / 2_000_000) ** 0.5
        assert abs(seen / 2_000_000 - float(p)) < 5 * sd * 1.5     # shoe-to-shoe correlation widens it a little
