"""Write src/tapete/analysis/sin_descarte_figures.py: póquer sin descarte's ante under the optimal call/fold
strategy, counted over every deal (tapete.analysis.sin_descarte_exact), for each jurisdiction's paytable and for
Caribbean stud's usual one (the published 5.2243 % cross-check); with the version and the seconds it took.

    PYTHONPATH=src python scripts/exact_sin_descarte.py        # about a minute per paytable
"""

from __future__ import annotations

import json
import pathlib
import time

from tapete import __version__
from tapete.analysis import sin_descarte_exact as sd
from tapete.games.poker.sin_descarte import SIN_DESCARTE_RULES

OUT = pathlib.Path(__file__).resolve().parents[1] / "src/tapete/analysis/sin_descarte_figures.py"


def main() -> None:
    sd.tables()
    tables: dict[str, dict[str, int]] = {"caribbean-stud": sd.CARIBBEAN_PAYS}
    for j, rules in SIN_DESCARTE_RULES.items():
        tables[j] = {c: int(v) for c, v in rules.call_pays.items()}
    results: dict[str, dict[str, object]] = {}
    done: dict[tuple[int, ...], dict[str, object]] = {}
    for name, pays in tables.items():
        key = tuple(int(x) for x in sd.pay_vector(pays))
        if key not in done:
            t0 = time.perf_counter()
            r = sd.solve(pays)
            done[key] = {"pays": list(key), "counts": list(r.counts), "seconds": round(time.perf_counter() - t0, 1),
                         "strategy": sd.strategy_table(r.decisions)}
            print(f"{name}: edge {float(r.edge) * 100:.6f} % of the ante = {r.edge}, {done[key]['seconds']} s")
        results[name] = done[key]
    t0 = time.perf_counter()
    simple = sd.solve(SIN_DESCARTE_RULES["ES-IB"].call_pays, simple=True)
    results["ES-IB-simple"] = {"pays": [], "counts": list(simple.counts), "seconds": round(time.perf_counter() - t0, 1),
                               "strategy": "the simulation kernel's simple strategy (banked_poker.SD_STRATEGY)"}
    print(f"ES-IB, simple strategy: edge {float(simple.edge) * 100:.6f} % = {simple.edge}")
    body = json.dumps(results, indent=1)
    OUT.write_text(f'''"""Póquer sin descarte's ante under the optimal call/fold strategy, every deal counted
(tapete.analysis.sin_descarte_exact), written by scripts/exact_sin_descarte.py (tapete {__version__}).
Per paytable: the pays (high card .. royal flush, the call's multiple), the outcome counts over the
{sd.DEALS:,} deals (sin_descarte_exact.OUTCOMES), the seconds, and the strategy in words."""

from typing import Any

VERSION = "{__version__}"
METHOD = "exact: every deal counted; suit symmetry, dealer hands counted per rank class by inclusion-exclusion"
FIGURES: dict[str, Any] = {body}
''')


if __name__ == "__main__":
    main()
