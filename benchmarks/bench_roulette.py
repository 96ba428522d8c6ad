"""Roulette simulation speed and memory (issue 10): a ten-bet layout with per-bet results, against a plain Python
loop and against the generator's own draw rate (the physical limit), and resident memory as rounds grow."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import numpy as np

from tapete.analysis.simulate import parse_bets, simulate

LAYOUT = "straight:17,split:17-20,street:1-2-3,corner:1-2-4-5,six-line:1-2-3-4-5-6,column:1,dozen:2,two-dozens:1-2,red,black@half"


def plain_python(spins: int) -> float:
    """What a straightforward loop does: draw, then test each bet."""
    bets = [({17}, 35), ({17, 20}, 17), ({1, 2, 3}, 11), ({1, 2, 4, 5}, 8), (set(range(1, 7)), 5),
            (set(range(1, 37, 3)), 2), (set(range(13, 25)), 2), (set(range(1, 25)), 0.5),
            ({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}, 1), ({2, 4, 6, 8, 10, 11, 13, 15, 17, 20, 22, 24, 26, 28, 29, 31, 33, 35}, 1)]
    totals = [0.0] * len(bets)
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(spins):
        n = rng.randrange(37)
        for i, (covers, pays) in enumerate(bets):
            if n in covers:
                totals[i] += 1 + pays
            elif n == 0 and pays == 1:
                totals[i] += 0.5
    return spins / (time.perf_counter() - start)


def raw_draws(n: int = 1 << 26) -> float:
    gen = np.random.Generator(np.random.PCG64(1))
    start = time.perf_counter()
    gen.integers(0, 37, size=n, dtype=np.uint8)
    return n / (time.perf_counter() - start)


# The child's own peak: VmHWM of its address space. Not getrusage's ru_maxrss, which Linux carries over exec from
# the parent's address space at fork: it reported the bench process's 1.6 GB (the speed runs above) as the
# simulation's (issue 33, point 7).
PEAK = "int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1])/1024"


def resident_memory(rounds: int) -> tuple[float, float]:
    """The simulation's peak resident memory (MiB) and seconds, measured alone in a process of its own."""
    code = (f"import time; from tapete.analysis.simulate import parse_bets, simulate; t=time.perf_counter();"
            f"simulate('roulette-french','ES',{rounds},1,parse_bets({LAYOUT!r}),with_exact=False);"
            f"print({PEAK}, time.perf_counter()-t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


NOTE = ("The memory rows: the simulation alone, in a process of its own, its peak read from its own address space "
        "(VmHWM); getrusage's ru_maxrss would carry the bench process's peak over exec (tests/test_bench_memory.py).")


def run() -> list[dict]:
    specs = parse_bets(LAYOUT)
    simulate("roulette-french", "ES", 1 << 22, 1, specs, with_exact=False)      # warm up
    best = 0.0
    for _ in range(3):
        r = simulate("roulette-french", "ES", 50_000_000, 7, specs, with_exact=False)
        best = max(best, r.rounds / r.seconds)
    loop = plain_python(300_000)
    raw = raw_draws()
    rows = [
        {"measure": "ten-bet layout, spins/s (one core)", "tapete": f"{best / 1e6:.1f} M", "peer": f"plain Python loop {loop / 1e6:.2f} M",
         "ratio": f"{best / loop:.0f}x"},
        {"measure": "generator raw uint8 draws/s", "tapete": f"{best / 1e6:.1f} M", "peer": f"{raw / 1e6:.1f} M",
         "ratio": f"{raw / best:.2f}x slower than raw draws"},
    ]
    for rounds in (10_000_000, 100_000_000):
        rss, secs = resident_memory(rounds)
        rows.append({"measure": f"peak resident memory, {rounds:.0e} rounds", "tapete": f"{rss:.0f} MiB",
                     "peer": f"{secs:.1f} s", "ratio": "flat (chunked)"})
    return rows


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
