"""`tapete play chemin-de-fer`: a free bank is offered seat by seat, then back to its giver, then auctioned, as the
engine's `asking_order` says (R: docs/rulings.md#chemin-bank-award)."""

from __future__ import annotations

import io

from rich.console import Console

from tapete.catalog import get_game
from tapete.engine.events import Act, Bet, Deal
from tapete.terminal import baccarat as term
from tapete.terminal.voice import voice

GAME = get_game("chemin-de-fer")
M = 100


class Shy:
    """Computer players who decline every bank they are offered and bid `bid` at the auction."""

    def __init__(self, bid: int | None) -> None:
        self.bid = bid
        self.asked: list[str] = []

    def takes(self, least: int, stage: str) -> int | None:
        self.asked.append(stage)
        return least if stage == "last-resort" else None

    def bids(self, least: int) -> int | None:
        return self.bid


def passed_by(seat: int):
    """Seat `seat` banks, wins a coup and passes a hand of 59.50 €."""
    state = GAME.open("ES", {"minimum": M, "departments": term.SEATS}, ["2S", "TH", "3D", "9C"] + ["4S", "TH", "5D", "8C"])
    for e in (Bet("K", term.NAMES[seat], "bank", 5000, None, {"seat": seat}),
              Bet("s", "x", "player", 1000, None, {"seat": seat % 6 + 1}), Deal(), Act("pass", bet="K")):
        GAME.apply(state, e)
    return state


def award(state, robot, answers: list[str]) -> tuple[str, list[str], int]:
    out = io.StringIO()
    feed = iter(answers)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(feed)

    v = voice(Console(file=out, width=200), read)
    balance, _, left = term._award_bank(GAME, state, robot, v, lambda key, **p: v.read(key, **p).lower(), 100000, 0)
    assert not left
    return out.getvalue(), prompts, balance


def test_everyone_declines_then_the_bank_is_auctioned() -> None:
    state = passed_by(1)                      # you sit at seat 3: asked after seat 2
    text, prompts, balance = award(state, Shy(bid=30 * M), ["", "40"])
    assert text.count("declines the bank") == 5 and "You decline the bank." in text   # 4 seats and the giver
    assert "auctioned" in text and "Your bid" in prompts[-1]
    assert state.bank().player == "you" and state.bank().holding == 4000      # your 40 € beats their 30 €
    assert balance == 100000 - 4000


def test_the_giver_is_offered_the_bank_back_for_the_same_amount() -> None:
    state = passed_by(3)                      # you passed it: nobody takes it, you are asked to take it back
    text, prompts, balance = award(state, Shy(bid=None), ["59.50"])
    assert "take it back" in prompts[0] and "€59.50" in prompts[0]
    assert state.bank().player == "you" and state.bank().holding == 5950


def test_nobody_bids_the_seat_at_the_passers_right_takes_it_for_the_minimum() -> None:
    state = passed_by(5)
    robot = Shy(bid=None)
    text, _, _ = award(state, robot, ["", ""])   # you decline in the rotation and do not bid
    assert robot.asked[-1] == "last-resort"
    assert state.bank().player == term.NAMES[6] and state.bank().holding == M
