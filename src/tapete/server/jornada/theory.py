"""What a table should have won: each bet's house edge per unit of its initial bet (the figures `tapete edge`
prints) and its variance, per game and jurisdiction, computed once per process.

The strategy assumed is stated with each figure: a bet whose rules offer a choice is priced with the choice its
`tapete edge` line names (blackjack: the basic strategy tapete derives; roulette's simple chances after a zero:
prison, the table's default when the player does not choose, docs/rulings.md#roulette-default-prison).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from fractions import Fraction

from tapete.catalog import get_game

# Black Jack's main bet: the standard deviation of the net result per unit of the initial bet (doubles and splits
# counted), SIMULATED: `tapete simulate blackjack -j J --rounds 400000 --json` (seed 1, basic strategy), 2026-11-29.
# The exact solver gives the mean only (analysis/blackjack_exact.py).
BLACKJACK_SD = {"ES": 1.11278, "ES-IB": 1.112205, "ES-GA": 1.09041, "ES-AN": 1.13755}
BLACKJACK_SD_METHOD = "simulated, 400,000 rounds (tapete simulate blackjack --rounds 400000, seed 1)"
# Where several options price one kind, the one the books assume (the table's default, or the one strategy tapete has).
PREFERRED_OPTIONS = ("basic-strategy", "prison")


@dataclass(frozen=True)
class BetTheory:
    kind: str
    option: str | None
    edge: Fraction                  # house edge per unit of the initial bet
    edge_method: str                # exact, enumerated-float, simulated, model (`tapete edge`)
    variance: float | None          # of the net result per unit of the initial bet
    variance_method: str
    strategy: str

    @property
    def sd(self) -> float | None:
        return math.sqrt(self.variance) if self.variance is not None else None


_CACHE: dict[tuple[str, str], dict[str, BetTheory]] = {}
_LOCK = threading.Lock()


def theory(game_id: str, jurisdiction: str) -> dict[str, BetTheory]:
    """{bet kind: its figures} for the game in the jurisdiction (cached: blackjack's exact edge is tabled, the
    others take a few seconds once)."""
    key = (game_id, jurisdiction)
    with _LOCK:
        if key not in _CACHE:
            _CACHE[key] = _compute(game_id, jurisdiction)
        return _CACHE[key]


def _compute(game_id: str, jurisdiction: str) -> dict[str, BetTheory]:
    game = get_game(game_id)
    if game_id == "blackjack":
        return _blackjack(jurisdiction)
    from tapete.analysis.edges import edges

    lines = edges(game, jurisdiction)
    chosen: dict[str, object] = {}
    for line in lines:
        if line.on is not None and line.kind in chosen:
            continue
        have = chosen.get(line.kind)
        if have is None or (line.option in PREFERRED_OPTIONS and getattr(have, "option", None) not in PREFERRED_OPTIONS):
            chosen[line.kind] = line
    cases = game.edge_cases(jurisdiction)
    out: dict[str, BetTheory] = {}
    for kind, line in chosen.items():
        variance, method = _variance(game, jurisdiction, line, cases)
        strategy = (f"{line.option} ({line.note})" if line.option and line.note else line.option or "no decision")
        out[kind] = BetTheory(kind, line.option, Fraction(line.house_edge), line.method, variance, method,   # type: ignore[attr-defined]
                              strategy)
    return out


def _variance(game: object, jurisdiction: str, line: object, cases: list[object]) -> tuple[float | None, str]:
    from tapete.analysis.moments import case_moments

    kind, option = getattr(line, "kind"), getattr(line, "option")   # noqa: B009 - an EdgeResult
    case = next((c for c in cases if getattr(c, "kind") == kind and getattr(c, "option") == option), None)   # noqa: B009
    try:
        if getattr(game, "id") == "punto-banca":   # noqa: B009 - its own exact law (the generic solver has none)
            from tapete.analysis.par import law_moments, punto_banca_law

            rows = punto_banca_law(game, jurisdiction, line)   # type: ignore[arg-type]
            if rows:
                return float(law_moments(rows).variance), "exact"
        if case is not None:
            variance = case_moments(game, jurisdiction, case).variance   # type: ignore[arg-type]
            if variance > 0:
                return float(variance), "exact"
    except Exception:  # noqa: BLE001 - a figure the solvers cannot give is shown as unknown, never an error
        pass
    return None, "not computed for this bet"


def _blackjack(jurisdiction: str) -> dict[str, BetTheory]:
    """The main bet at basic strategy: the exact edge tabled by scripts/exact_blackjack.py (what `tapete edge
    blackjack` prints; tests/analysis check it against the chart), the sd simulated (BLACKJACK_SD)."""
    from tapete.analysis.blackjack_figures import FIGURES

    row = FIGURES[jurisdiction]
    sd = BLACKJACK_SD[jurisdiction]
    return {"main": BetTheory("main", "basic-strategy", -Fraction(*row["ev"]), "exact", sd * sd, BLACKJACK_SD_METHOD,
                              f"the basic strategy tapete derives for {jurisdiction} (`tapete strategy blackjack -j "
                              f"{jurisdiction}`); insurance and even money declined")}
