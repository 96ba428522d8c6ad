"""Risk for the operator: the house's result per session and per table, and the money to have at hand.

A table's float (*anticipo*) must cover the players' wins as they happen, not just at the end of the session:
it is sized on the worst running loss within a session. The casino's guarantee covers all its tables together.
Both are reported at a chosen confidence (the quantile of the simulated sessions). Where the generic solver applies,
the round's exact mean and variance are reported beside the simulation (moments.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tapete.analysis.simulate import BetSpec, kernel_for
from tapete.catalog import get_game
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
    per_batch = max(1, batch // (rounds_per_session * tables))      # whole sessions: every table of each
    results, worst, casino = [], [], []
    for chunk, first in enumerate(range(0, sessions, per_batch)):
        n = min(per_batch, sessions - first)
        house = kernel.returns_matrix(bets, (n * tables, rounds_per_session), simulation_stream(seed, chunk))
        running = np.cumsum(house, axis=1)                              # row = (session, table), session-major
        results.append(running[:, -1])
        worst.append(np.maximum(0.0, -running.min(axis=1)))
        together = running.reshape(n, tables, rounds_per_session).sum(axis=1)
        casino.append(np.maximum(0.0, -together.min(axis=1)))
    session_result, worst_running, casino_worst = map(np.concatenate, (results, worst, casino))
    return RiskResult(game_id, jurisdiction, bets, rounds_per_session, sessions, tables, seed,
                      session_result, worst_running, casino_worst, exact_round(game, jurisdiction, bets))
