"""Detection: a winning card is found on exactly the ball that completes it — by the per-ball board, the
whole-game formula and the reducer, each against a plain-Python oracle."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.catalog import get_game
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Outcome
from tapete.games.bingo import Board, card_rows, completion_balls, generate_cards

GAME = get_game("bingo")
draws = st.permutations(list(range(1, 91)))
seeds = st.binary(min_size=16, max_size=16)


def oracle(grids: list, draw: list[int]) -> tuple[list[list[int]], list[int], list[int]]:
    """Per card: the ball count completing each row, its line (first row) and its bingo (last row)."""
    pos = {n: i for i, n in enumerate(draw, 1)}
    rows = [[max(pos[n] for n in row) for row in card_rows(g)] for g in grids]
    return rows, [min(r) for r in rows], [max(r) for r in rows]


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(1, 40), draws)
def test_board_reports_each_row_and_card_on_the_ball_that_completes_it(seed: bytes, n: int, draw: list[int]) -> None:
    grids = generate_cards(TableRng(seed), n)
    rows, line, bingo = oracle(grids, draw)
    board = Board.of(grids)
    for k, ball in enumerate(draw, 1):
        lines, bingos = board.mark(ball)
        assert sorted(lines.tolist()) == sorted(c for c in range(n) for r in range(3) if rows[c][r] == k)
        assert sorted(bingos.tolist()) == [c for c in range(n) if bingo[c] == k]
        assert board.has_line().tolist() == [line[c] <= k for c in range(n)]
    assert not board.to_go().any()
    arr = np.array([card_rows(g) for g in grids])
    got_line, got_bingo = completion_balls(arr, draw)
    assert got_line.tolist() == line and got_bingo.tolist() == bingo
    half = draw[:45]
    part_line, part_bingo = completion_balls(arr, half)
    assert part_line.tolist() == [v if v <= 45 else 0 for v in line]
    assert part_bingo.tolist() == [v if v <= 45 else 0 for v in bingo]


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(1, 25), draws, st.data())
def test_auto_claims_pay_exactly_the_cards_completed_on_the_deciding_ball(seed: bytes, n: int, draw: list[int],
                                                                          data: st.DataObject) -> None:
    grids = generate_cards(TableRng(seed), n)
    _, line, bingo = oracle(grids, draw)
    end = min(bingo)
    state = GAME.open("ES", {"minimum": 100, "prizes": [{"line": 9000, "bingo": 30000}]})
    for i, g in enumerate(grids):
        state = GAME.step(state, Bet(f"c{i}", "p", "card", 100, tuple(g)))
    at = 0
    while at < end:                                   # the draw, spread over events of random sizes
        size = data.draw(st.integers(1, end - at))
        state = GAME.step(state, Outcome("draw", draw[at:at + size]))
        at += size
    game = state.partidas[-1]
    assert game.status == "ended"
    assert game.line_ball == min(line) and game.bingo_ball == end
    assert game.line_winners == [f"c{i}" for i in range(n) if line[i] == min(line)]
    assert game.bingo_winners == [f"c{i}" for i in range(n) if bingo[i] == end]


@settings(max_examples=30, deadline=None)
@given(seeds, draws)
def test_a_called_bingo_is_verified_on_its_completing_ball_and_not_one_before(seed: bytes, draw: list[int]) -> None:
    (grid,) = generate_cards(TableRng(seed), 1)
    _, line, bingo = oracle([grid], draw)
    state = GAME.open("ES", {"minimum": 100, "prizes": [{"line": 100, "bingo": 1000}], "claims": "called"})
    state = GAME.step(state, Bet("c", "p", "card", 100, tuple(grid)))
    state = GAME.step(state, Outcome("draw", draw[:bingo[0] - 1]))
    state = GAME.step(state, Act("line", bet="c"))
    state = GAME.step(state, Act("bingo", bet="c"))
    assert state.partidas[-1].status == "drawing" and state.partidas[-1].window_bingo == []
    assert state.partidas[-1].window_line == (["c"] if line[0] < bingo[0] else [])
    state = GAME.step(state, Outcome("draw", [draw[bingo[0] - 1]]))
    state = GAME.step(state, Act("bingo", bet="c"))
    assert state.partidas[-1].status == "ending"
    settled = GAME.settle(GAME.finish(state)).document()
    assert settled["bets"]["c"]["returned"] == 1100
