"""Exact expected values over a game's own `chance`, `step` and `settle`, in Fractions.

The value of a state is what its bets will still return and stake, in expectation. States the game keys
alike (`analysis_key`) have futures equal up to a money scale, so a round that loops back on itself — a
bet in prison meeting zero after zero, a craps point rolled again — is a finite linear system (an absorbing
Markov chain) solved exactly by Gaussian elimination, not a recursion cut at an arbitrary depth.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tapete.engine.events import Bet
from tapete.engine.game import EdgeCase, Game
from tapete.engine.settlement import Settlement

Vector = tuple[Fraction, Fraction]       # (returned, staked)
ZERO: Vector = (Fraction(0), Fraction(0))


def _bets(settlement: Settlement, only: str | None) -> list[Any]:
    return [r for k, r in settlement.bets.items() if only is None or k == only]


def _finished(settlement: Settlement, only: str | None = None) -> Vector:
    """Money already decided: returned and staked of the bets that are no longer pending."""
    ret = sum((r.returned for r in _bets(settlement, only) if r.final != "pending"), Fraction(0))
    stk = sum((r.staked for r in _bets(settlement, only) if r.final != "pending"), Fraction(0))
    return ret, stk


def _pending_staked(settlement: Settlement, only: str | None = None) -> Fraction:
    return sum((r.staked for r in _bets(settlement, only) if r.final == "pending"), Fraction(0))


@dataclass
class _Row:
    """scale * W[key] = constant + sum(coef * W[other])"""

    scale: Fraction
    constant: list[Fraction]
    coefs: dict[Hashable, Fraction]


class ExactSolver:
    """Expected final (returned, staked) of everything on the table (or of the bet `only`), following
    `option` at decisions."""

    def __init__(self, game: Game, option: str | None = None, max_states: int = 200_000,
                 only: str | None = None) -> None:
        self.game = game
        self.option = option
        self.max_states = max_states
        self.only = only
        self.rows: dict[Hashable, _Row] = {}

    def _delta(self, before: Settlement, after: Settlement) -> list[Fraction]:
        (r0, s0), (r1, s1) = _finished(before, self.only), _finished(after, self.only)
        # staked that moves from pending to finished is not new money; count staked on the total
        total0 = s0 + _pending_staked(before, self.only)
        total1 = s1 + _pending_staked(after, self.only)
        return [r1 - r0, total1 - total0]

    def _successors(self, state: Any) -> list[tuple[Fraction, Any]]:
        act = self.game.decision(state, self.option)
        if act is not None:
            return [(Fraction(1), self.game.step(state, act))]
        return [(p, self.game.step(state, event)) for event, p in self.game.chance(state)]

    def _explore(self, start: Any) -> Hashable:
        root_key, _ = self.game.analysis_key(start)
        stack = [start]
        seen = {root_key}
        while stack:
            state = stack.pop()
            key, scale = self.game.analysis_key(state)
            settled = self.game.settle(state)
            row = _Row(scale, [Fraction(0), Fraction(0)], {})
            for p, nxt in self._successors(state):
                d = self._delta(settled, self.game.settle(nxt))
                row.constant[0] += p * d[0]
                row.constant[1] += p * d[1]
                nkey, nscale = self.game.analysis_key(nxt)
                if self.game.chance(nxt) or self.game.decision(nxt, self.option) is not None:
                    row.coefs[nkey] = row.coefs.get(nkey, Fraction(0)) + p * nscale
                    if nkey not in seen:
                        seen.add(nkey)
                        stack.append(nxt)
                        if len(seen) > self.max_states:
                            raise RuntimeError(f"more than {self.max_states} states: not solvable by enumeration")
            self.rows[key] = row
        return root_key

    def solve(self, start: Any) -> Vector:
        """Expected (returned, staked) still to come from `start` onwards, plus what is already decided."""
        decided = _finished(self.game.settle(start), self.only)
        already = (decided[0], decided[1] + _pending_staked(self.game.settle(start), self.only))
        if not (self.game.chance(start) or self.game.decision(start, self.option) is not None):
            return already
        root = self._explore(start)
        values = _solve_linear(self.rows)
        _, root_scale = self.game.analysis_key(start)
        return already[0] + root_scale * values[root][0], already[1] + root_scale * values[root][1]


def _solve_linear(rows: dict[Hashable, _Row]) -> dict[Hashable, list[Fraction]]:
    """Gaussian elimination in Fractions: scale*W[k] - sum(coef*W[j]) = constant, for both components."""
    keys = list(rows)
    index = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    matrix: list[dict[int, Fraction]] = []
    rhs: list[list[Fraction]] = []
    for k in keys:
        row = rows[k]
        coefs: dict[int, Fraction] = {index[k]: row.scale}
        for j, c in row.coefs.items():
            coefs[index[j]] = coefs.get(index[j], Fraction(0)) - c
        matrix.append(coefs)
        rhs.append(list(row.constant))
    for col in range(n):      # sparse elimination; rows are few and sparse in these games
        pivot = next((r for r in range(col, n) if matrix[r].get(col, 0) != 0), None)
        if pivot is None:
            raise ArithmeticError("singular system: a state never reaches a settlement")
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
        pv = matrix[col][col]
        for r in range(n):
            if r == col:
                continue
            f = matrix[r].get(col)
            if not f:
                continue
            f = f / pv
            for c, v in matrix[col].items():
                nv = matrix[r].get(c, Fraction(0)) - f * v
                if nv:
                    matrix[r][c] = nv
                else:
                    matrix[r].pop(c, None)
            rhs[r] = [a - f * b for a, b in zip(rhs[r], rhs[col], strict=True)]
    return {k: [v / matrix[i][i] for v in rhs[i]] for i, k in enumerate(keys)}


METHODS = ("exact", "enumerated-float", "simulated", "model")
CONFIDENCE = 0.99          # of every simulated figure's interval


@dataclass(frozen=True)
class Stakes:
    """What a bet with more than one stake or a premium puts at risk, per unit of its `amount`.

    `initial` is staked when the bet is made (trijoker's three bets, a bet and its insurance premium); `wagered` is
    the average money at risk by the end of the round (a call or a Bet added, bets withdrawn, odds laid behind a line
    bet). The house edge per unit of the initial bet is the expected loss over `initial`; the element of risk, over
    `wagered` (docs/edge.md#per-unit)."""

    initial: Fraction
    wagered: Fraction
    how: str                   # what adds or withdraws money, with its citation where the text sets it
    wagered_method: str = "exact"    # how `wagered` is known: exact, or the method of the line it comes from

    def per_initial(self, loss: Fraction) -> Fraction:
        return loss / self.initial

    def element_of_risk(self, loss: Fraction) -> Fraction:
        return loss / self.wagered


@dataclass(frozen=True)
class EdgeResult:
    """One line of `tapete edge` (schema: docs/edge.md).

    `house_edge` is the expected loss per unit of the bet's `amount` (pushes counted as staked). `method` says how
    it was obtained: `exact` — a true Fraction from exact arithmetic; `enumerated-float` — an enumeration in float64
    (`house_edge` holds the float), true to within `error_bound`, resting on `approximation` where the model
    simplifies; `simulated` — the sample's mean over `rounds` rounds, `interval` its 99% confidence interval;
    `model` — exact arithmetic on a model of something the rules leave open (a jackpot meter), its assumptions in
    `note`. Only an exact line is ever shown as a fraction. `stakes`: for a bet with more than one stake or a
    premium, what it stakes at first and wagers on average (the two per-unit figures)."""

    kind: str
    on: tuple[Any, ...] | None
    option: str | None
    house_edge: Fraction
    method: str = "exact"
    note: str | None = None          # what the figure is exact for (a strategy, a stated assumption)
    error_bound: float | None = None             # enumerated-float: |house_edge - true edge| <= error_bound
    approximation: str | None = None             # enumerated-float: the model's simplification, if any
    interval: tuple[float, float] | None = None  # simulated: the 99% confidence interval of the house edge
    rounds: int | None = None                    # simulated: the sample size
    stakes: Stakes | None = None                 # more than one stake or a premium: the per-unit figures
    minimum_return: tuple[Fraction, str] | None = None   # model: the jurisdiction's minimum return and its citation
    problems: tuple[str, ...] = ()               # model: what the configuration breaks (the text, the model)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}")
        if self.method == "enumerated-float" and self.error_bound is None:
            raise ValueError(f"{self.kind}: an enumerated-float figure states its error bound")
        if self.method == "simulated" and (self.interval is None or self.rounds is None):
            raise ValueError(f"{self.kind}: a simulated figure states its rounds and interval")
        if self.method == "model" and not self.note:
            raise ValueError(f"{self.kind}: a model figure states its assumptions")

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def edge_text(self, value: Fraction | None = None) -> str:
        """The figure (or `value`, one derived from it by exact arithmetic) as it may honestly be written: a
        fraction when exact, else a decimal to its precision (a model's to 10 decimals)."""
        from tapete.core.money import fraction_text

        value = self.house_edge if value is None else value
        if self.exact:
            return fraction_text(value)
        res = self.resolution()
        return decimal_text(float(value), res if res is not None else 1e-9)

    def resolution(self) -> float | None:
        """The figure's precision: its error bound, or its interval's half-width; None when exact or a model."""
        if self.error_bound is not None:
            return self.error_bound
        if self.interval is not None:
            return (self.interval[1] - self.interval[0]) / 2
        return None

    def percent_text(self, of_return: bool = False, value: Fraction | None = None) -> str:
        """The house edge (or the RTP) in percent, to 4 decimals when exact, else to the figure's precision."""
        edge = float(self.house_edge if value is None else value)
        shown = 100 * (1 - edge if of_return else edge)
        res = self.resolution()
        return f"{shown:.4f}" if res is None else decimal_text(shown, 100 * res)

    def per_unit(self) -> tuple[Fraction, Fraction] | None:
        """(house edge per unit of the initial bet, element of risk per unit wagered), for a multi-stake bet."""
        if self.stakes is None:
            return None
        return self.stakes.per_initial(self.house_edge), self.stakes.element_of_risk(self.house_edge)

    def breaks_minimum(self) -> bool:
        """A model whose return is under the jurisdiction's minimum return."""
        return self.minimum_return is not None and 1 - self.house_edge < self.minimum_return[0]

    def document(self, with_on: bool) -> dict[str, Any]:
        doc: dict[str, Any] = {"kind": self.kind}
        if with_on and self.on is not None:
            doc["on"] = list(self.on)
        if self.option is not None:
            doc["option"] = self.option
        doc["house_edge"] = self.edge_text()
        doc["house_edge_percent"] = round(float(self.house_edge) * 100, 4)
        doc["method"] = self.method
        if self.error_bound is not None:
            doc["error_bound"] = self.error_bound
        if self.approximation:
            doc["approximation"] = self.approximation
        if self.interval is not None:
            doc["interval"] = [round(self.interval[0], 8), round(self.interval[1], 8)]
            doc["confidence"] = CONFIDENCE
        if self.rounds is not None:
            doc["rounds"] = self.rounds
        if self.stakes is not None:
            per_initial, risk = self.per_unit()  # type: ignore[misc]
            exact_wager = self.exact and self.stakes.wagered_method == "exact"
            doc["per_unit"] = {
                "initial_bet": fraction_or_decimal(self.stakes.initial, True),
                "average_wager": fraction_or_decimal(self.stakes.wagered, self.stakes.wagered_method == "exact"),
                "average_wager_method": self.stakes.wagered_method,
                "house_edge_per_initial_bet": self.edge_text(per_initial),
                "element_of_risk": fraction_or_decimal(risk, exact_wager) if exact_wager else self.edge_text(risk),
                "element_of_risk_method": self.method if self.stakes.wagered_method == "exact" else
                self.stakes.wagered_method,
                "how": self.stakes.how,
            }
        if self.minimum_return is not None:
            floor, source = self.minimum_return
            doc["minimum_return"] = {"return": f"{floor.numerator}/{floor.denominator}", "source": source,
                                     "met": not self.breaks_minimum()}
        if self.problems:
            doc["problems"] = list(self.problems)
        if self.note:
            doc["note"] = self.note
        return doc


def fraction_or_decimal(value: Fraction, exact: bool) -> str:
    """An exact figure as "n/d" (the project's JSON convention), any other as a decimal to 10 places."""
    from tapete.core.money import fraction_text

    return fraction_text(value) if exact else f"{float(value):.10f}"


def decimal_text(value: float, resolution: float) -> str:
    """`value` with as many decimals as `resolution` (an error bound, a half-interval) justifies, plus one."""
    import math

    decimals = 15 if resolution <= 0 else max(1, math.ceil(-math.log10(resolution)) + 1)
    return f"{value:.{min(decimals, 15)}f}"


def edge_of(game: Game, jurisdiction: str, case: EdgeCase) -> EdgeResult:
    """House edge per unit initially staked: (E[staked] - E[returned]) / stake, pushes counted."""
    state = game.open(jurisdiction, case.table)
    for event in case.setup:
        state = game.step(state, event)
    bet = Bet("edge", "player", case.kind, case.amount, case.on, dict(case.extra))
    state = game.step(state, bet)
    returned, staked = ExactSolver(game, case.option, only="edge" if case.setup else None).solve(state)
    return EdgeResult(case.kind, case.on, case.option, (staked - returned) / case.amount)


def generic_edges(game: Game, jurisdiction: str, cases: list[EdgeCase] | None = None) -> list[EdgeResult]:
    """Every edge case the game names (or `cases`) by the generic solver, grouped: one line per kind and option
    unless targets differ."""
    chosen = game.edge_cases(jurisdiction) if cases is None else cases
    results = [edge_of(game, jurisdiction, c) for c in chosen]
    grouped: dict[tuple[str, str | None], list[EdgeResult]] = {}
    for r in results:
        grouped.setdefault((r.kind, r.option), []).append(r)
    out: list[EdgeResult] = []
    for rs in grouped.values():
        if len({r.house_edge for r in rs}) == 1:
            out.append(dataclasses.replace(rs[0], on=None))
        else:
            out.extend(rs)
    return out
