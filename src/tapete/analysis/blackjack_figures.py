"""Black Jack's exact expectations per jurisdiction, written by scripts/exact_blackjack.py (tapete 0.1.0):
`PYTHONPATH=src python scripts/exact_blackjack.py`. Method: tapete.analysis.blackjack_exact — the derived chart's
expectation over the full shoe,
split hands and re-splits exact (the word expansion), residues modulo primes joined by the Chinese remainder
theorem. "ev": the player's expectation per unit of the first bet (numerator, denominator); "wager": the money
wagered per unit of the first bet; "chart": the fingerprint of the chart they belong to (read only when the
chart tapete derives today has it). CPU seconds on one core. tests/analysis/test_blackjack_exact.py checks the
method against a brute-force round and these figures against the float enumeration."""

from typing import Any

VERSION = "0.1.0"
SECONDS = 120.9          # CPU seconds, all four jurisdictions together
METHOD = "exact: word expansion of the splits, modular arithmetic, Chinese remainder (blackjack_exact)"
COMMAND = "PYTHONPATH=src python scripts/exact_blackjack.py"
FIGURES: dict[str, dict[str, Any]] = {
    "ES": {"chart": "7820de412275708d", "primes": 21,
        "ev": (-3180682748292450639562819523524942191132256,
               578158750621664313729325422148828316652114375),
        "wager": (474112743299564,
                  431528109635805)},
    "ES-IB": {"chart": "2b3e4955b0670927", "primes": 21,
        "ev": (-391500901619810536238007520220086447895696,
               192719583540554771243108474049609438884038125),
        "wager": (96335856199372,
                  86305621927161)},
    "ES-GA": {"chart": "47d089bab6bb5b78", "primes": 21,
        "ev": (-55807183992603146237937374423009899367476,
               18650282278118203668687916843510590859745625),
        "wager": (474112743299564,
                  431528109635805)},
    "ES-AN": {"chart": "219ec38d60d69974", "primes": 21,
        "ev": (-875054249793728238300261159023964884809196,
               192719583540554771243108474049609438884038125),
        "wager": (96335856199372,
                  86305621927161)},
}
