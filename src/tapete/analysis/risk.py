"""Risk for the operator: the house's result per session and per table, and the money to have at hand.

A table's float (*anticipo*) must cover the players' wins as they happen, not just at the end of the session:
it is sized on the worst running loss within a session. The casino's guarantee covers all its tables together.
Both are reported at a chosen confidence (the quantile of the simulated sessions). Where the generic solver applies,
the round's exact mean and variance are reported beside the simulation (moments.py). Every layout's simulated house
edge (per unit staked, with its 99% interval) is set beside the `tapete edge` figure of its bets.

Games with a compiled kernel (the card games) give a histogram of each bet's returns, not a sequence of rounds:
a session's rounds are then drawn from that sample without replacement in a random order — for independent rounds
exactly a sequence of independent rounds; for a shoe dealt on (punto y banca) the dependence between the coups of
one shoe is not kept, which the document says. Such a layout holds one bet: the histograms of several bets do not
tell how they fell together in one round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tapete.analysis.simulate import Z99, BetSpec, GenericKernel, default_specs, kernel_for, reference_edges
from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.core.rng import simulation_stream
from tapete.engine.events import Bet
from tapete.engine.game import Game


def exact_round(game: Game, jurisdiction: str, bets: list[BetSpec]) -> tuple[Fraction, Fraction] | None:
    """The house's result per round of the whole layout (its bets ride the same outcome), exact mean and variance
    in euros, where the generic solver applies (at most one option for the layout, no setup); else None."""
    from tapete.analysis.moments import MomentSolver

    options = {b.option for b in bets if b.option} or {None}     # a bet without decisions takes any option
    if len(options) > 1 or any(b.setup for b in bets):
        return None
    state = game.open(jurisdiction, {"minimum": 100})
    for i, b in enumerate(bets):
        state = game.step(state, Bet(f"b{i}", "player", b.kind, b.amount, b.on))
    solver = MomentSolver(game, options.pop())
    if not solver._live(state):  # noqa: SLF001 - no chance of its own: the game's analysis is elsewhere
        return None
    m = solver.moments(state, 100)        # per euro: the player's net; the house's is its opposite
    return -m.mean, m.variance


@dataclass
class RiskResult:
    game: str
    jurisdiction: str
    bets: list[BetSpec]
    rounds_per_session: int
    sessions: int
    tables: int
    seed: int
    session_result: np.ndarray      # house result per table-session, in euros
    worst_running: np.ndarray       # worst running house loss within each table-session (>= 0)
    casino_worst: np.ndarray        # worst running loss of all tables together, per session
    exact: tuple[Fraction, Fraction] | None = None   # the house's result per round: exact mean, variance (euros)
    reference: tuple[Fraction, float, str] | None = None   # the layout's `tapete edge` figure: edge, its own sd, method
    sampling: str = "sequence"       # "sequence" (rounds drawn in order) or "histogram" (see the module's docstring)

    def edge_estimate(self) -> tuple[float, float]:
        """The simulated house edge per unit staked, and its 99% half-interval (the table-sessions are independent)."""
        stake = sum(b.amount for b in self.bets) / 100 * self.rounds_per_session
        per = self.session_result / stake
        return float(per.mean()), Z99 * float(per.std(ddof=1)) / math.sqrt(len(per))

    def document(self, confidences: tuple[float, ...] = (0.99, 0.999)) -> dict[str, Any]:
        per = self.session_result
        stake = sum(b.amount for b in self.bets) / 100 * self.rounds_per_session
        doc: dict[str, Any] = {
            "game": self.game, "jurisdiction": self.jurisdiction,
            "bets": [b.label() for b in self.bets], "rounds_per_session": self.rounds_per_session,
            "sessions": self.sessions, "tables": self.tables, "seed": self.seed,
            "stake_per_session": round(stake, 2),
            "house_result_per_session": {
                "mean": round(float(per.mean()), 4), "sd": round(float(per.std()), 4),
                "p01": round(float(np.quantile(per, 0.01)), 4), "p50": round(float(np.quantile(per, 0.5)), 4),
                "p99": round(float(np.quantile(per, 0.99)), 4),
                "probability_house_loses": round(float((per < 0).mean()), 6),
            },
            "float": {}, "guarantee": {},
        }
        if self.exact is not None:            # per session: n times the round's mean, sqrt(n) times its sd
            mean, var = self.exact
            n = self.rounds_per_session
            doc["exact_per_round"] = {"mean": round(float(mean), 6), "sd": round(math.sqrt(float(var)), 6),
                                      "variance": f"{var.numerator}/{var.denominator}"}
            doc["house_result_per_session"]["mean_exact"] = round(float(mean) * n, 4)
            doc["house_result_per_session"]["sd_exact"] = round(math.sqrt(float(var) * n), 4)
        mean, half = self.edge_estimate()
        edge: dict[str, Any] = {"estimate": round(mean, 6), "interval": [round(mean - half, 6), round(mean + half, 6)],
                                "confidence": 0.99, "sampling": self.sampling}
        if self.reference is not None:
            ref, ref_sd, method = self.reference
            edge["reference"] = f"{ref.numerator}/{ref.denominator}" if method == "exact" else f"{float(ref):.6f}"
            edge["reference_method"] = method
            edge["inside"] = abs(mean - float(ref)) <= math.hypot(half, Z99 * ref_sd)
        doc["house_edge"] = edge
        for c in confidences:
            key = f"{c * 100:g}%"
            doc["float"][key] = round(float(np.quantile(self.worst_running, c)), 2)
            doc["guarantee"][key] = round(float(np.quantile(self.casino_worst, c)), 2)
        return doc


def simulate_risk(game_id: str, jurisdiction: str, bets: list[BetSpec], rounds_per_session: int, sessions: int,
                  tables: int = 1, seed: int = 1, batch: int = 1 << 21) -> RiskResult:
    """Simulate `sessions` sessions at each of `tables` independent tables; amounts in euros."""
    game = get_game(game_id)
    game.rules_for(jurisdiction)
    kernel = kernel_for(game, jurisdiction)
    if not isinstance(kernel, GenericKernel):
        bets = _with_default_options(game, jurisdiction, bets)
    per_batch = max(1, batch // (rounds_per_session * tables))      # whole sessions: every table of each
    results, worst, casino = [], [], []
    for chunk, first in enumerate(range(0, sessions, per_batch)):
        n = min(per_batch, sessions - first)
        house = _house_matrix(kernel, bets, (n * tables, rounds_per_session), simulation_stream(seed, chunk))
        running = np.cumsum(house, axis=1)                              # row = (session, table), session-major
        results.append(running[:, -1])
        worst.append(np.maximum(0.0, -running.min(axis=1)))
        together = running.reshape(n, tables, rounds_per_session).sum(axis=1)
        casino.append(np.maximum(0.0, -together.min(axis=1)))
    session_result, worst_running, casino_worst = map(np.concatenate, (results, worst, casino))
    return RiskResult(game_id, jurisdiction, bets, rounds_per_session, sessions, tables, seed,
                      session_result, worst_running, casino_worst,
                      exact_round(game, jurisdiction, bets) if isinstance(kernel, GenericKernel) else None,
                      layout_reference(game, jurisdiction, bets),
                      "sequence" if isinstance(kernel, GenericKernel) else "histogram")


def _with_default_options(game: Game, jurisdiction: str, bets: list[BetSpec]) -> list[BetSpec]:
    """A compiled kernel plays a bet by its strategy or option: a bet given without one takes the one `tapete edge`
    and `tapete simulate` use by default (trente et quarante's red -> red@half, blackjack's main -> its chart)."""
    from dataclasses import replace

    defaults = default_specs(game, jurisdiction)
    out = []
    for b in bets:
        if b.option is None:
            first = next((d for d in defaults if d.kind == b.kind and d.option is not None), None)
            if first is not None:
                b = replace(b, option=first.option)
        out.append(b)
    return out


def _house_matrix(kernel: Any, bets: list[BetSpec], shape: tuple[int, int], gen: np.random.Generator) -> np.ndarray:
    """The house's result per round in euros, one row per table-session: the generic kernel draws the rounds in
    order; a compiled kernel's histogram of `rows x rounds` returns is dealt out in a random order."""
    if isinstance(kernel, GenericKernel):
        return kernel.returns_matrix(bets, shape, gen)
    if len(bets) != 1:
        raise TapeteError("bad-option", "--bets: one bet per layout in this game (its simulation counts each bet's "
                          "returns, not how several bets fell together in one round)")
    (bet,) = bets
    hist = kernel.run([bet], shape[0] * shape[1], gen)[0]
    values = np.repeat(np.array([float(r) for r in hist], dtype=np.float64), list(hist.values()))
    gen.shuffle(values)
    return (bet.amount / 100 * (1 - values)).reshape(shape)


def layout_reference(game: Game, jurisdiction: str, bets: list[BetSpec]) -> tuple[Fraction, float, str] | None:
    """The layout's house edge per unit staked from `tapete edge` (the stake-weighted edges of its bets): the
    figure, its own standard deviation (a simulated line's; 0 otherwise) and the weakest method among them."""
    from tapete.analysis.edges import edges

    try:
        lines = edges(game, jurisdiction)
    except TapeteError:
        return None
    known = reference_edges(game, jurisdiction, bets)
    total, var, methods = Fraction(0), 0.0, set()
    for b in bets:
        line = known.get(b) or next((r for r in lines if r.kind == b.kind and r.option == b.option
                                     and (r.on is None or tuple(r.on) == tuple(b.on or ()))), None)
        if line is None:
            return None
        total += line.house_edge * b.amount
        if line.interval is not None:
            var += ((line.interval[1] - line.interval[0]) / 2 / Z99 * b.amount) ** 2
        methods.add(line.method)
    stake = sum(b.amount for b in bets)
    method = next(m for m in ("simulated", "model", "enumerated-float", "exact") if m in methods or m == "exact")
    return total / stake, math.sqrt(var) / stake, method
