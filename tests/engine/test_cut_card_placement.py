"""The cut, stop and red cards sit where the texts put them, checked whenever a document lists the whole shoe
(issue 19): blackjack leaves at least a deck behind its cut card (001:326), trente et quarante's red card goes before
the last five cards (001:452), chemin de fer's stop card before the last seven (001:840), punto y banca's with seven
below it (001:671)."""

from __future__ import annotations

from tapete.catalog import get_game
from tapete.conformance.document import settle_document


def _full(decks: int) -> list[str]:
    return [r + s for _ in range(decks) for r in "A23456789TJQK" for s in "SHDC"]


def _open(game: str, cut: int, j: str = "ES", **table: object) -> dict:
    decks = get_game(game).rules_for(j).decks        # type: ignore[attr-defined]
    doc = {"game": game, "jurisdiction": j, "table": {"minimum": 1000, "cut-card": cut, **table},
           "shoe": _full(decks), "events": []}
    return settle_document(doc)


def _refused(answer: dict, source: str) -> bool:
    return answer.get("error", {}).get("code") == "bad-table" and source in answer["error"].get("source", "")


def test_blackjack_cut_card_leaves_at_least_a_deck_001_326() -> None:
    n = 52 * get_game("blackjack").rules_for("ES").decks          # type: ignore[attr-defined]
    assert _refused(_open("blackjack", n - 51), "326")
    assert "error" not in _open("blackjack", n - 52)
    assert "error" not in _open("blackjack", n - 80)


def test_trente_quarante_red_card_before_the_last_five_001_452() -> None:
    n = 52 * 6
    assert _refused(_open("trente-quarante", n - 6, minimum=500), "452")
    assert _refused(_open("trente-quarante", n - 4, minimum=500), "452")
    assert "error" not in _open("trente-quarante", n - 5, minimum=500)


def test_chemin_de_fer_stop_card_before_the_last_seven_001_840() -> None:
    n = 52 * get_game("chemin-de-fer").rules_for("ES").decks     # type: ignore[attr-defined]
    assert _refused(_open("chemin-de-fer", n - 10), "840")
    assert "error" not in _open("chemin-de-fer", n - 7)


def test_punto_banca_stop_card_with_seven_below_001_671() -> None:
    n = 52 * get_game("punto-banca").rules_for("ES").decks       # type: ignore[attr-defined]
    assert _refused(_open("punto-banca", n - 8), "671")
    assert "error" not in _open("punto-banca", n - 7)


def test_a_short_shoe_cannot_show_the_placement() -> None:
    short = {"game": "chemin-de-fer", "jurisdiction": "ES", "table": {"minimum": 1000, "cut-card": 3},
             "shoe": ["2S", "3H", "4D", "3C", "3S", "2H"], "events": []}
    assert "error" not in settle_document(short)
