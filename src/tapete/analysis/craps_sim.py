"""Craps by simulation: a strategy of bets re-placed by a small rule, over millions of rolls.

The engine (`tapete.games.craps`) is the reference and is far too rich to run 20 million rolls a second, so
the strategy also lives in a small compiled kernel over integer cents: before every roll it re-places what
the rule wants up, then it judges the roll exactly as the engine does. A test drives the engine and the
kernel through the same rolls and asserts the same money; another that the simulated edge's confidence
interval contains the exact edge the solver computes from the engine's own settlement.

The strategy ("pass + odds + place 6/8"): a Win (pass) bet on every come-out roll, 1x odds as soon as its
point is set, and Right bets on 6 and 8 kept up on every roll (re-placed at once after they win or lose;
they work on come-out rolls too, as the texts read, docs/rulings.md#craps-working-on-come-out).

Rolls come from NumPy streams (`simulation_stream(seed, chunk)`): one byte per roll, 0..35 = 6(d1-1)+(d2-1).
Run it with `python -m tapete.analysis.craps_sim --rolls 20000000` for a Rich progress bar.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np

from tapete.core.rng import simulation_stream

try:  # numba is what makes this fast; without it the same code runs as plain (slow) Python
    from numba import njit
except ImportError:  # pragma: no cover - exercised only where numba is not installed
    def njit(*args: object, **kwargs: object) -> Callable:  # type: ignore[misc]
        if len(args) == 1 and callable(args[0]):
            return args[0]  # type: ignore[return-value]
        return lambda fn: fn

KINDS = ("pass", "odds", "place-6", "place-8")
PASS, ODDS, PLACE6, PLACE8 = range(4)
TOTALS = np.array([d1 + d2 for d1 in range(1, 7) for d2 in range(1, 7)], dtype=np.int64)
# Winnings per unit as (numerator, denominator) by total: odds 000:644, right bets 000:654.
ODDS_RATE = {4: (2, 1), 5: (3, 2), 6: (6, 5), 8: (6, 5), 9: (3, 2), 10: (2, 1)}
PLACE_RATE = {6: (7, 6), 8: (7, 6)}


@dataclass(frozen=True)
class Strategy:
    """Amounts in cents; zero leaves a bet out. Odds are 1x the pass bet (the maximum, 000:668)."""

    pass_amount: int = 1000
    odds: bool = True
    place_6: int = 1200
    place_8: int = 1200

    def check(self) -> None:
        """Every payout must be whole cents, so that the kernel's integer money is exact."""
        if self.pass_amount <= 0:
            raise ValueError("the strategy needs a pass bet")
        if self.odds and self.pass_amount % 10:
            raise ValueError("1x odds on 6/8 (6:5) and 5/9 (3:2) pay whole cents only on multiples of 10 cents")
        for n, amount in ((6, self.place_6), (8, self.place_8)):
            if amount < 0 or amount % 6:
                raise ValueError(f"a right bet on {n} pays 7:6: its amount must be a multiple of 6 cents")

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per total 0..12: odds stake and win on that point; place stake and win on that number."""
        odds_amt = np.zeros(13, np.int64)
        odds_win = np.zeros(13, np.int64)
        place_amt = np.zeros(13, np.int64)
        place_win = np.zeros(13, np.int64)
        for n, (num, den) in ODDS_RATE.items():
            if self.odds:
                odds_amt[n] = self.pass_amount
                odds_win[n] = self.pass_amount * num // den
        for n, amount in ((6, self.place_6), (8, self.place_8)):
            num, den = PLACE_RATE[n]
            place_amt[n] = amount
            place_win[n] = amount * num // den
        return odds_amt, odds_win, place_amt, place_win


@njit(cache=True)
def _run(rolls, totals, pass_amt, odds_amt, odds_win, place_amt, place_win, state, acc, sq):  # noqa: ANN001
    """Play `rolls` (bytes 0..35) with the strategy. `state` = [point, pass up, odds up, place6 up, place8 up]
    carries over between chunks; `acc[kind]` += (bets decided, staked, returned); `sq[kind]` += net**2."""
    point = state[0]
    pass_up = state[1]
    odds_up = state[2]
    up6 = state[3]
    up8 = state[4]
    for i in range(rolls.shape[0]):
        t = totals[rolls[i]]
        # the rule: re-place what is down
        if point == 0 and pass_up == 0:
            pass_up = 1
        if point != 0 and pass_up == 1 and odds_up == 0 and odds_amt[point] > 0:
            odds_up = 1
        if place_amt[6] > 0:
            up6 = 1
        if place_amt[8] > 0:
            up8 = 1
        # right bets on 6 and 8: the number before 7, decided and closed either way
        if up6 == 1 and (t == 6 or t == 7):
            net = place_win[6] if t == 6 else -place_amt[6]
            acc[2, 0] += 1
            acc[2, 1] += place_amt[6]
            acc[2, 2] += place_amt[6] + net
            sq[2] += net * net
            up6 = 0
        if up8 == 1 and (t == 8 or t == 7):
            net = place_win[8] if t == 8 else -place_amt[8]
            acc[3, 0] += 1
            acc[3, 1] += place_amt[8]
            acc[3, 2] += place_amt[8] + net
            sq[3] += net * net
            up8 = 0
        if point == 0:
            if t == 7 or t == 11 or t == 2 or t == 3 or t == 12:
                net = pass_amt if (t == 7 or t == 11) else -pass_amt
                acc[0, 0] += 1
                acc[0, 1] += pass_amt
                acc[0, 2] += pass_amt + net
                sq[0] += net * net
                pass_up = 0
            else:
                point = t
        elif t == point or t == 7:
            net = pass_amt if t == point else -pass_amt
            acc[0, 0] += 1
            acc[0, 1] += pass_amt
            acc[0, 2] += pass_amt + net
            sq[0] += net * net
            pass_up = 0
            if odds_up == 1:
                onet = odds_win[point] if t == point else -odds_amt[point]
                acc[1, 0] += 1
                acc[1, 1] += odds_amt[point]
                acc[1, 2] += odds_amt[point] + onet
                sq[1] += onet * onet
                odds_up = 0
            point = 0
    state[0] = point
    state[1] = pass_up
    state[2] = odds_up
    state[3] = up6
    state[4] = up8


def roll_bytes(seed: int, chunk: int, n: int) -> np.ndarray:
    """The rolls of one chunk: n bytes 0..35 from the chunk's own NumPy stream (unbiased, no modulo)."""
    return simulation_stream(seed, chunk).integers(0, 36, size=n, dtype=np.uint8)


def dice_of(code: int) -> list[int]:
    """Byte 0..35 -> [d1, d2], the engine's roll."""
    return [code // 6 + 1, code % 6 + 1]


@dataclass
class SimResult:
    strategy: Strategy
    rolls: int
    seconds: float
    totals: np.ndarray                      # kind x (bets decided, staked, returned), cents
    squares: np.ndarray                     # kind: sum of net**2 per decided bet
    batches: list[tuple[int, int]] = field(default_factory=list)   # per chunk (lost, staked)

    def edge(self, kind: str | None = None) -> float:
        if kind is None:
            staked, returned = self.totals[:, 1].sum(), self.totals[:, 2].sum()
        else:
            _, staked, returned = self.totals[KINDS.index(kind)]
        return float(staked - returned) / float(staked)

    def interval(self, kind: str | None = None, z: float = 3.29) -> tuple[float, float]:
        """Confidence interval of the edge (z = 3.29: 99.9%). Per kind from the bets' own variance (each kind
        has one stake); for the whole strategy by batch means over the chunks (bets of one roll correlate)."""
        if kind is not None:
            k = KINDS.index(kind)
            n, staked, returned = (int(x) for x in self.totals[k])
            stake = staked / n
            mean = (returned - staked) / n
            sd = math.sqrt(max(float(self.squares[k]) / n - mean * mean, 0.0))
            half = z * sd / math.sqrt(n) / stake
            return -mean / stake - half, -mean / stake + half
        lost = np.array([b[0] for b in self.batches], float)
        staked = np.array([b[1] for b in self.batches], float)
        k = len(self.batches)
        if k < 2:
            raise ValueError("the strategy's interval needs at least two chunks")
        ratio = lost.sum() / staked.sum()
        var = k / (k - 1) * float(((lost - ratio * staked) ** 2).sum()) / staked.sum() ** 2
        return ratio - z * math.sqrt(var), ratio + z * math.sqrt(var)

    @property
    def rolls_per_second(self) -> float:
        return self.rolls / self.seconds if self.seconds else float("inf")


def simulate(strategy: Strategy = Strategy(), rolls: int = 10_000_000, seed: int = 0, chunk: int = 1 << 20,
             progress: Callable[[int], None] | None = None) -> SimResult:
    """One continuous session of `rolls` rolls, in chunks of `chunk` (chunk i uses stream i of `seed`)."""
    strategy.check()
    odds_amt, odds_win, place_amt, place_win = strategy.arrays()
    state = np.zeros(5, np.int64)
    acc = np.zeros((4, 3), np.int64)
    sq = np.zeros(4, np.float64)
    batches = []
    start = time.perf_counter()
    done = 0
    index = 0
    while done < rolls:
        n = min(chunk, rolls - done)
        before = acc[:, 1:].sum(axis=0).copy()
        _run(roll_bytes(seed, index, n), TOTALS, strategy.pass_amount, odds_amt, odds_win, place_amt, place_win,
             state, acc, sq)
        staked, returned = acc[:, 1:].sum(axis=0) - before
        batches.append((int(staked - returned), int(staked)))
        done += n
        index += 1
        if progress is not None:
            progress(n)
    return SimResult(strategy, rolls, time.perf_counter() - start, acc, sq, batches)


def engine_totals(strategy: Strategy, codes: np.ndarray, jurisdiction: str = "ES",
                  table: dict | None = None) -> np.ndarray:
    """The same strategy played by the engine through the same rolls: kind x (decided, staked, returned).

    The rule reads the engine's own state (its point, the bets still working) and places real bets; the
    money comes from `settle`, so equal totals mean the kernel judges every roll as the engine does.
    """
    from tapete.catalog import get_game
    from tapete.engine.events import Bet, Outcome

    game = get_game("craps")
    state = game.open(jurisdiction, table or {"minimum": 100})
    kind_of: dict[str, int] = {}
    count = 0

    def place(kind: str, amount: int, on: tuple | None, label: int) -> None:
        nonlocal count
        count += 1
        game.apply(state, Bet(f"b{count}", "sim", kind, amount, on))
        kind_of[f"b{count}"] = label

    for code in codes:
        up = {kind_of[b.id]: b for b in state.bets if b.status == "working"}
        if state.phase == "come-out" and PASS not in up:
            place("pass", strategy.pass_amount, None, PASS)
        elif state.phase == "point" and strategy.odds and PASS in up and ODDS not in up:
            place("odds", strategy.pass_amount, (up[PASS].id,), ODDS)
        for label, n, amount in ((PLACE6, 6, strategy.place_6), (PLACE8, 8, strategy.place_8)):
            if amount and label not in up:
                place("place", amount, (n,), label)
        game.apply(state, Outcome("roll", dice_of(int(code))))
    totals = np.zeros((4, 3), np.int64)
    for bet_id, result in game.settle(state).bets.items():
        if result.final == "settled":
            row = totals[kind_of[bet_id]]
            row += (1, int(result.staked), int(result.returned))
    return totals


def warm_up() -> None:
    """Compile (or load from the cache) the kernel, so that timings measure rolls, not the compiler."""
    simulate(rolls=1000, chunk=1000)


# -- the exact edge of the strategy, from the engine's exact per-bet edges -------------------------
@cache
def exact_edges_by_kind(jurisdiction: str = "ES") -> dict[str, Fraction]:
    """The solver's exact edge of each bet the strategy uses (odds: per point), from the engine's cases."""
    from tapete.analysis.exact import edge_of
    from tapete.catalog import get_game

    game = get_game("craps")
    out = {}
    for case in game.edge_cases(jurisdiction):
        if case.option is not None:
            continue
        if case.kind == "pass":
            out["pass"] = edge_of(game, jurisdiction, case).house_edge
        elif case.kind == "place" and case.on in ((6,), (8,)):
            out[f"place-{case.on[0]}"] = edge_of(game, jurisdiction, case).house_edge
        elif case.kind == "odds" and getattr(case.setup[0], "kind", None) == "pass":
            out[f"odds-{sum(case.setup[-1].value)}"] = edge_of(game, jurisdiction, case).house_edge  # type: ignore[union-attr]
    return out


def exact_strategy_edge(strategy: Strategy = Strategy(), jurisdiction: str = "ES") -> Fraction:
    """Expected lost / expected staked per roll in the long run (renewal-reward).

    A pass decision takes L = 1 + sum p(N)/(p(N)+p(7)) rolls on average and holds one pass bet, and odds
    on the point N with probability p(N); a right bet kept up on 6 (or 8) is decided on a roll with
    probability 11/36. Each bet's edge is the exact solver's, from the engine's own settlement.
    """
    e = exact_edges_by_kind(jurisdiction)
    p = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    cycle = 1 + sum(p[n] / (p[n] + p[7]) for n in ODDS_RATE)
    lost = strategy.pass_amount * e["pass"] / cycle
    staked = Fraction(strategy.pass_amount) / cycle
    if strategy.odds:
        lost += sum(p[n] * strategy.pass_amount * e[f"odds-{n}"] for n in ODDS_RATE) / cycle
        staked += sum(p[n] * strategy.pass_amount for n in ODDS_RATE) / cycle
    for n, amount in ((6, strategy.place_6), (8, strategy.place_8)):
        decided = p[n] + p[7]
        lost += decided * amount * e[f"place-{n}"]
        staked += decided * amount
    return lost / staked


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=20_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pass-amount", type=int, default=1000)
    parser.add_argument("--no-odds", action="store_true")
    parser.add_argument("--place", type=int, default=1200, help="amount on 6 and on 8, cents (0: none)")
    args = parser.parse_args(argv)
    strategy = Strategy(args.pass_amount, not args.no_odds, args.place, args.place)
    console = Console()
    warm_up()
    with Progress(TextColumn("rolls"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console) as bar:
        task = bar.add_task("rolls", total=args.rolls)
        result = simulate(strategy, args.rolls, args.seed, progress=lambda n: bar.advance(task, n))
    exact = exact_strategy_edge(strategy)
    lo, hi = result.interval()
    console.print(f"{args.rolls:,} rolls in {result.seconds:.2f} s ({result.rolls_per_second / 1e6:.1f} M rolls/s)")
    for kind in KINDS:
        if result.totals[KINDS.index(kind)][0]:
            a, b = result.interval(kind)
            console.print(f"  {kind:8} edge {result.edge(kind) * 100:7.4f} %   99.9% CI [{a * 100:.4f}, {b * 100:.4f}]")
    console.print(f"  strategy edge {result.edge() * 100:.4f} %   99.9% CI [{lo * 100:.4f}, {hi * 100:.4f}]   "
                  f"exact {exact} = {float(exact) * 100:.4f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
