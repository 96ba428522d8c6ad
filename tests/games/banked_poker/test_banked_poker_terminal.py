"""`tapete play` at the four banked poker tables, fed typed lines."""

from __future__ import annotations

import io

from rich.console import Console

from tapete.catalog import get_game
from tapete.terminal import play_game

SEED = "00112233445566778899aabbccddeeff"


def session(game: str, jurisdiction: str, lines: list[str]) -> str:
    out = io.StringIO()
    feed = iter(lines)
    play_game(get_game(game), jurisdiction, minimum=1000, balance=50000, seed=SEED,
              console=Console(file=out, width=120), read=lambda _prompt: next(feed))
    return out.getvalue()


def test_sin_descarte_round_with_seguro() -> None:
    text = session("poker-sin-descarte", "ES-AN", ["help", "10", "seguro", "deal", "voy", "10", "deal", "paso", "quit"])
    assert "ES-AN   minimum" in text and "dealer" in text and "you win" in text or "you lose" in text
    assert "Your chips" in text and "Good night." in text and "Traceback" not in text


def test_sin_descarte_buying_a_card_in_balears() -> None:
    text = session("poker-sin-descarte", "ES-IB", ["10", "deal", "buy xx", "paso", "quit"])
    assert "Good night." in text and "Traceback" not in text


def test_trijoker_withdraws_and_keeps() -> None:
    text = session("trijoker", "ES-IB", ["10", "deal", "k", "w", "20", "deal", "withdraw", "keep", "quit"])
    assert "Bet 1: keep (k) or withdraw (w)?" in text and "Bet 2: keep (k) or withdraw (w)?" in text
    assert "common cards" in text
    assert "Good night." in text


def test_tripoker_bets_and_folds() -> None:
    text = session("tripoker", "ES-AN", ["ante 10", "fortune 10", "deal", "bet", "ante 10", "deal", "fold", "quit"])
    assert "queen high" in text and "Good night." in text and "Traceback" not in text


def test_pai_gow_setting_and_house_way() -> None:
    text = session("pai-gow", "ES-AN", ["10", "deal", "low 1 2", "low 1 2", "10", "deal", "house", "quit"])
    assert "The dice show" in text and "your seven cards" in text and "Your hand is set the house way" in text
    assert "Good night." in text and "Traceback" not in text


def test_bad_lines_are_explained() -> None:
    text = session("trijoker", "ES-AN", ["frobnicate", "9999", "5", "deal", "quit"])
    assert "An amount in euros" in text and "You only have €500.00 free" in text and "under the table's minimum" in text
    assert "There are no bets on the table" in text
