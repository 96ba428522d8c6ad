"""Write src/tapete/analysis/trente_quarante_figures.py: the exact law of a trente et quarante coup from a full
6-deck shoe (tapete.analysis.trente_quarante.exact_joint), with the version and the seconds it took.

    PYTHONPATH=src python scripts/exact_trente_quarante.py [--decks 6]
"""

from __future__ import annotations

import argparse
import pathlib
import time

from tapete import __version__
from tapete.analysis import trente_quarante as tq

OUT = pathlib.Path(__file__).resolve().parents[1] / "src/tapete/analysis/trente_quarante_figures.py"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decks", type=int, default=6)
    ap.add_argument("--stop", type=int, default=31)
    args = ap.parse_args()
    t0 = time.perf_counter()
    law = tq.exact_joint(tq.shoe_composition(args.decks), args.stop)
    seconds = round(time.perf_counter() - t0, 1)
    rows = ",\n".join(f"        ({b}, {r}, {x})" for (b, r), x in sorted(law.numerators.items()))
    OUT.write_text(f'''"""The exact law of a trente et quarante coup from a full {args.decks}-deck shoe, written by
scripts/exact_trente_quarante.py (tapete {__version__}, {seconds} s): P(black totals b, red totals r) =
numerator / denominator, integer counts over the shoe's compositions (tapete.analysis.trente_quarante).
tests/games/trente_quarante/test_tq_exact.py recomputes every numerator modulo a fresh prime."""

from typing import Any

FIGURES: dict[str, Any] = {{
    "decks": {args.decks}, "stop": {args.stop}, "version": "{__version__}", "seconds": {seconds},
    "method": "exact: modular recursion over the shoe's compositions, Chinese remainder",
    "denominator": {law.denominator},
    "joint": [
{rows},
    ],
}}
''')
    print(f"{len(law.numerators)} cells, denominator of {len(str(law.denominator))} digits, {seconds} s -> {OUT}")


if __name__ == "__main__":
    main()
