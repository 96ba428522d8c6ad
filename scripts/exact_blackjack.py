"""Write src/tapete/analysis/blackjack_figures.py: each jurisdiction's exact Black Jack expectation under the chart
tapete derives for it (tapete.analysis.blackjack_exact), with the expected money wagered, the chart's fingerprint,
the version and the seconds it took.

    PYTHONPATH=src python scripts/exact_blackjack.py          # a few minutes per jurisdiction (6 decks)
"""

from __future__ import annotations

import pathlib
import time

from tapete import __version__
from tapete.analysis import blackjack as bj
from tapete.analysis import blackjack_exact as bx
from tapete.games.blackjack.rules import BLACKJACK_RULES

OUT = pathlib.Path(__file__).resolve().parents[1] / "src/tapete/analysis/blackjack_figures.py"
COMMAND = "PYTHONPATH=src python scripts/exact_blackjack.py"


def main() -> None:
    rows = []
    codes = list(BLACKJACK_RULES)
    t0 = time.process_time()
    sols = {code: bj.solve(BLACKJACK_RULES[code]) for code in codes}
    first = BLACKJACK_RULES[codes[0]]
    for code in codes:         # one shoe and one dealer rule: the dealer's laws are shared
        rules = BLACKJACK_RULES[code]
        assert (rules.decks, rules.dealer_stands_soft_17) == (first.decks, first.dealer_stands_soft_17)
    nxt, final = bj.dealer_tables(first)
    results = bx.evaluate_many(bj._comps(), bj.full_shoe(first), nxt, final,
                               [bx.chart_of(BLACKJACK_RULES[c], sols[c]) for c in codes])
    seconds = round(time.process_time() - t0, 1)
    for code, res in zip(codes, results, strict=True):
        sol = sols[code]
        assert abs(float(res.house_edge) - sol.house_edge) < 1e-9, (code, float(res.house_edge), sol.house_edge)
        rows.append(f'    "{code}": {{"chart": "{bx.fingerprint(sol)}", "primes": {res.primes},\n'
                    f'        "ev": ({res.ev.numerator},\n               {res.ev.denominator}),\n'
                    f'        "wager": ({res.wager.numerator},\n                  {res.wager.denominator})}},')
        print(f"{code}: house edge {float(res.house_edge) * 100:.6f} %, wager {float(res.wager):.6f}, "
              f"{res.primes} primes", flush=True)
    OUT.write_text(f'''"""Black Jack's exact expectations per jurisdiction, written by scripts/exact_blackjack.py (tapete {__version__}):
`{COMMAND}`. Method: tapete.analysis.blackjack_exact — the derived chart's
expectation over the full shoe,
split hands and re-splits exact (the word expansion), residues modulo primes joined by the Chinese remainder
theorem. "ev": the player's expectation per unit of the first bet (numerator, denominator); "wager": the money
wagered per unit of the first bet; "chart": the fingerprint of the chart they belong to (read only when the
chart tapete derives today has it). CPU seconds on one core. tests/analysis/test_blackjack_exact.py checks the
method against a brute-force round and these figures against the float enumeration."""

from typing import Any

VERSION = "{__version__}"
SECONDS = {seconds}          # CPU seconds, all four jurisdictions together
METHOD = "exact: word expansion of the splits, modular arithmetic, Chinese remainder (blackjack_exact)"
COMMAND = "{COMMAND}"
FIGURES: dict[str, dict[str, Any]] = {{
{chr(10).join(rows)}
}}
''')
    print(f"-> {OUT}")


if __name__ == "__main__":
    main()
