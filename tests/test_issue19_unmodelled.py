"""Issue 19, rules the catalogs state that a single round cannot hold or that give no rule to model: each is
answered by a ruling, and where the engine refuses, it refuses with a clear code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapete.conformance.document import settle_document

RULINGS = (Path(__file__).resolve().parents[1] / "docs" / "rulings.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("anchor", [
    "circle-resting-and-ante", "minimum-player-counts", "circle-server-rebuy-and-sit-out", "chemin-former-banker-cards",
    "chemin-passed-hand-lost", "chemin-refuse-to-deal", "chemin-standing-player-moves", "chemin-banco-in-association",
    "accumulated-bets-unmodelled", "blackjack-bolsa-scale-and-carousel", "craps-shooter-line-bet",
    "roulette-andalucia-corrections", "garage-withdrawal", "phh-import-as-written",
])
def test_issue_19_ruling_exists(anchor: str) -> None:
    assert f"\n## {anchor}\n" in RULINGS


def test_accumulated_bets_baleares_have_no_bet_kind() -> None:
    """000:384-386 (docs/rulings.md#accumulated-bets-unmodelled): authorisable, no rule given: no bet."""
    from tapete.catalog import get_game

    rules = get_game("blackjack").rules_for("ES-IB")
    assert rules.accumulated_jackpots is True  # type: ignore[attr-defined]
    assert "accumulated-bets-unmodelled" in rules.sources["accumulated_jackpots"]
    answer = settle_document({"game": "blackjack", "jurisdiction": "ES-IB", "table": {"minimum": 1000},
                              "events": [{"bet": {"id": "a", "player": "p", "kind": "accumulated", "amount": 1000,
                                                  "box": 1}}], "shoe": ["AS", "KS", "9H", "7D"]})
    assert answer["error"]["code"] == "unknown-bet-kind"


def test_andalusian_roulette_corrections_are_written_before_close() -> None:
    """003:402-408 (docs/rulings.md#roulette-andalucia-corrections): a bet first written after «no va más» is
    still refused; the corrected or announced bet is written before `close` and settles."""
    late = settle_document({"game": "roulette-french", "jurisdiction": "ES-AN", "table": {"minimum": 100},
                            "events": [{"close": {}}, {"bet": {"id": "t", "player": "p", "kind": "red", "amount": 1000}},
                                       {"spin": 3}]})
    assert late["error"]["code"] == "bet-closed"
    fixed = settle_document({"game": "roulette-french", "jurisdiction": "ES-AN", "table": {"minimum": 100},
                             "events": [{"bet": {"id": "t", "player": "p", "kind": "straight", "amount": 1000, "on": [8]}},
                                        {"close": {}}, {"spin": 8}]})
    assert fixed["bets"]["t"]["returned"] == 36000
