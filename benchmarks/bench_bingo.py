"""Bingo detection speed: every card checked after every ball (issue 9 asks well under 1 ms per ball for 1,000
cards). The vectorised board against a plain-Python set check, the whole-game formula, and the reducer."""

from __future__ import annotations

import statistics
import time

import numpy as np

from tapete.catalog import get_game
from tapete.core.rng import TableRng
from tapete.engine.events import Bet, Outcome
from tapete.games.bingo import Board, card_rows, completion_balls, generate_cards

GAMES = 20


def _draws(rng: TableRng, games: int) -> list[list[int]]:
    out = []
    for _ in range(games):
        order = list(range(1, 91))
        rng.shuffle(order)
        out.append(order)
    return out


def per_ball_board(grids: list, draws: list[list[int]]) -> list[float]:
    """Seconds per ball: mark the ball and report every row and card it completes."""
    times = []
    for draw in draws:
        board = Board.of(grids)
        for ball in draw:
            t = time.perf_counter()
            board.mark(ball)
            times.append(time.perf_counter() - t)
    return times


def per_ball_python(grids: list, draws: list[list[int]]) -> list[float]:
    """The same check with Python sets, row by row: the baseline."""
    rows = [[set(r) for r in card_rows(g)] for g in grids]
    times = []
    for draw in draws[:3]:
        left = [[set(r) for r in card] for card in rows]
        for ball in draw:
            t = time.perf_counter()
            lines, bingos = [], []
            for i, card in enumerate(left):
                for r in card:
                    if ball in r:
                        r.discard(ball)
                        if not r:
                            lines.append(i)
                        if not any(card):
                            bingos.append(i)
            times.append(time.perf_counter() - t)
    return times


def whole_game(grids: list, draws: list[list[int]]) -> float:
    arr = np.array([card_rows(g) for g in grids])
    t = time.perf_counter()
    for draw in draws:
        completion_balls(arr, draw)
    return (time.perf_counter() - t) / len(draws)


def reducer_game(grids: list, draw: list[int], copy: bool) -> list[float]:
    """A whole auto-claim game through the reducer, one draw event per ball: seconds per event, the first
    (which opens the game and builds its board) included. `copy`: `step` (a deep copy per event, the board
    rebuilt from the state) instead of `apply` in place (a live table, the board kept)."""
    game = get_game("bingo")
    state = game.open("ES", {"minimum": 100, "prizes": [{"line": 10_000, "bingo": 50_000}]})
    for i, g in enumerate(grids):
        game.apply(state, Bet(f"c{i}", "p", "card", 100, tuple(g)))
    times = []
    for ball in draw:
        t = time.perf_counter()
        if copy:
            state = game.step(state, Outcome("draw", [ball]))
        else:
            game.apply(state, Outcome("draw", [ball]))
        times.append(time.perf_counter() - t)
        if state.partidas[-1].status == "ended":
            break
    return times


def run() -> list[dict]:
    rng = TableRng(b"bench-bingo-0001")
    draws = _draws(rng, GAMES)
    rows = []
    for n in (1_000, 10_000):
        grids = generate_cards(rng, n)
        board = per_ball_board(grids, draws)
        rows.append({"check": "Board.mark per ball (vectorised)", "cards": n,
                     "median_us": round(statistics.median(board) * 1e6, 1),
                     "p99_us": round(float(np.percentile(board, 99)) * 1e6, 1)})
        py = per_ball_python(grids, draws)
        rows.append({"check": "Python sets per ball (baseline)", "cards": n,
                     "median_us": round(statistics.median(py) * 1e6, 1), "p99_us": round(float(np.percentile(py, 99)) * 1e6, 1)})
        rows.append({"check": "completion_balls, whole 90-ball game", "cards": n,
                     "median_us": round(whole_game(grids, draws) * 1e6, 1), "p99_us": ""})
        for copy in (False, True):
            if copy and n > 1_000:
                continue
            times = reducer_game(grids, draws[0], copy)
            rows.append({"check": f"reducer per draw event ({'step: deep copy' if copy else 'apply in place'}), "
                                  f"game opening {times[0] * 1e3:.1f} ms", "cards": n,
                         "median_us": round(statistics.median(times[1:]) * 1e6, 1),
                         "p99_us": round(float(np.percentile(times[1:], 99)) * 1e6, 1)})
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
