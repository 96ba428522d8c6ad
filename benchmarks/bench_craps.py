"""Craps: simulated rolls per second of one strategy (pass + 1x odds + right bets on 6 and 8), tapete's
compiled kernel against crapssim in the same run, plus the rich engine that both are checked against.

The three play the same rule: a pass bet on every come-out, 1x odds once the point is set, right bets on 6
and 8 kept up on every roll (working on the come-out, as the catalogs read). Timings exclude compiling
(the kernel is warmed first) and include drawing the dice.
"""

from __future__ import annotations

import platform
import time

from tapete.analysis.craps_sim import Strategy, engine_totals, roll_bytes, simulate, warm_up

KERNEL_ROLLS = 20_000_000
CRAPSSIM_ROLLS = 60_000
ENGINE_ROLLS = 40_000


def crapssim_rate(rolls: int) -> float | None:
    try:
        from crapssim.strategy import BetPassLine, BetPlace, PassLineOddsMultiplier
        from crapssim.strategy.single_bet import StrategyMode
        from crapssim.table import Table
    except ImportError:
        return None
    table = Table(seed=1)
    table.settings["come_out_working_policy"] = "legacy"
    strategy = BetPassLine(10) + PassLineOddsMultiplier(1) + BetPlace(
        {6: 12, 8: 12}, mode=StrategyMode.ADD_IF_NOT_BET, skip_point=False, always_working=True)
    table.add_player(bankroll=10**12, strategy=strategy)
    start = time.perf_counter()
    table.run(max_rolls=rolls, verbose=False)
    return rolls / (time.perf_counter() - start)


def run() -> list[dict]:
    warm_up()
    kernel = simulate(Strategy(), rolls=KERNEL_ROLLS, seed=1).rolls_per_second
    codes = roll_bytes(1, 0, ENGINE_ROLLS)
    start = time.perf_counter()
    engine_totals(Strategy(), codes)
    engine = ENGINE_ROLLS / (time.perf_counter() - start)
    peer = crapssim_rate(CRAPSSIM_ROLLS)
    rows = [
        {"implementation": "tapete craps_sim (Numba kernel, 1 core)", "rolls": f"{KERNEL_ROLLS:,}",
         "rolls/s": f"{kernel:,.0f}", "vs crapssim": f"{kernel / peer:,.0f}x" if peer else "n/a"},
        {"implementation": "tapete engine (reducer, reference)", "rolls": f"{ENGINE_ROLLS:,}",
         "rolls/s": f"{engine:,.0f}", "vs crapssim": f"{engine / peer:,.2f}x" if peer else "n/a"},
    ]
    if peer:
        from importlib.metadata import version

        rows.append({"implementation": f"crapssim {version('crapssim')} (Python {platform.python_version()})",
                     "rolls": f"{CRAPSSIM_ROLLS:,}", "rolls/s": f"{peer:,.0f}", "vs crapssim": "1x"})
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
