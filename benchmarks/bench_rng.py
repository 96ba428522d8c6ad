"""The RNG and shuffle battery's unseeded run at the documented sample size (issue 32; docs/lab.md): the table
generator through the server's path, each round seeded from the operating system as at a live table, and the
simulators' PCG64 streams. CI runs the same battery on fixed seeds (tests/lab/test_rng_battery.py); this run's full
report is stored beside RESULTS.md in rng_battery.json."""

from __future__ import annotations

import json
from pathlib import Path

from tapete.lab.battery import BASE_DRAWS, Sizes, run_battery
from tapete.lab.rng_sources import SimulationSource, TableSource

STORED = Path(__file__).parent / "rng_battery.json"
NOTE = ""


def run() -> list[dict]:
    global NOTE
    reports = [run_battery(source, Sizes.for_draws(BASE_DRAWS)) for source in (TableSource(), SimulationSource())]
    STORED.write_text(json.dumps([r.document() for r in reports], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    rows = []
    for r in reports:
        for t in r.tests:
            rows.append({"source": r.source, "test": t.name, "n": f"{t.n:,}", "statistic": f"{t.statistic:.2f}",
                         "law": t.distribution, "p": f"{t.p:.4f}", "p (Holm)": f"{t.p_holm:.4f}",
                         "verdict": "pass" if t.passed else "FAIL"})
    NOTE = "; ".join(f"{r.source}: {'passes' if r.passed else 'FAILS'} ({len(r.tests)} tests, α = {r.alpha} "
                     f"family-wise, {r.correction}, unseeded, {r.seconds:.0f} s)" for r in reports)
    return rows
