"""Black Jack (CPU seconds of this process, so a busy machine does not skew the figures): the exact edge's time for one jurisdiction, and simulated hands per second under the derived
basic strategy against gymnasium's Blackjack-v1 stepped in the same run (skipped when gymnasium is missing).

Run alone: `python benchmarks/bench_blackjack.py`; `benchmarks/run.py` collects `run()` into RESULTS.md.
"""

from __future__ import annotations

import time


def _exact_rows() -> list[dict]:
    from tapete.analysis import blackjack as bj
    from tapete.analysis import blackjack_sim as bjs
    from tapete.games.blackjack.rules import BLACKJACK_RULES

    rows = []
    bjs.simulate("ES", 1000)           # compile (or load) the kernels outside the clock
    for j in ("ES", "ES-IB", "ES-GA", "ES-AN"):
        bj._solve_cached.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        sol = bj.solve(BLACKJACK_RULES[j])
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        rows.append({"what": f"enumerated edge {j} (float64 over the 6-deck shoe, derived chart, exact split method; the exact fractions: scripts/exact_blackjack.py)", "value": f"{sol.house_edge * 100:.4f} %",
                     "seconds": f"{cpu:.2f} CPU ({seconds:.2f} wall)", "per second": ""})
    return rows


def _simulation_rows(hands: int) -> list[dict]:
    from tapete.analysis import blackjack_sim as bjs

    result = bjs.simulate("ES", hands, seed=1)
    rate = result.hands / result.seconds
    rows = [{"what": f"simulated hands, basic strategy (ES), {hands:,} hands, one core",
             "value": f"edge {result.house_edge * 100:.4f} % ± {3 * result.stderr * 100:.4f}",
             "seconds": f"{result.seconds:.2f} CPU", "per second": f"{rate:,.0f}"}]
    try:
        import gymnasium
    except ImportError:
        rows.append({"what": "gymnasium Blackjack-v1", "value": "skipped: gymnasium is not installed", "seconds": "",
                     "per second": ""})
        return rows
    env = gymnasium.make("Blackjack-v1")
    env.reset(seed=1)
    episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    budget = 3.0
    while time.perf_counter() - start < budget:
        obs, _ = env.reset()
        done = False
        while not done:
            action = 1 if obs[0] < 17 else 0          # a simple basic-strategy stand-in: hit below 17
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        episodes += 1
    seconds = time.process_time() - cpu
    gym_rate = episodes / seconds
    rows.append({"what": f"gymnasium {gymnasium.__version__} Blackjack-v1, stepped (hit below 17)", "value": f"{episodes:,} hands",
                 "seconds": f"{seconds:.2f} CPU", "per second": f"{gym_rate:,.0f}"})
    rows.append({"what": "ratio tapete / gymnasium", "value": f"{rate / gym_rate:,.0f} x", "seconds": "", "per second": ""})
    return rows


def run(hands: int = 20_000_000) -> list[dict]:
    return _exact_rows() + _simulation_rows(hands)


if __name__ == "__main__":
    for row in run():
        print(row)
