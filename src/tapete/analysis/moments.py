"""Exact moments of a bet's net result, over the game's own `chance`, `step` and `settle`, in Fractions.

The exact solver (exact.py) gives the expected money returned and staked. A PAR sheet and `tapete risk` also need
the variance, the money a bet ends up risking (doubles, calls), and how often it wins or pushes. The same
absorbing Markov chain gives them: with V(X) the expected net still to come from state X and V2(X) its second
moment, a transition of probability p that moves d now and leads to Y gives

    V(X)  = sum p (d + V(Y))                V2(X) = sum p (d^2 + 2 d V(Y) + V2(Y))

and states the game keys alike (`analysis_key`) share V up to the money scale s (V scales by s, V2 by s^2), so
loops (a bet in prison, a craps point) are linear systems solved exactly. Win and push probabilities are solved
the same way where no loop changes the money scale; otherwise they are left to the simulation (None).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.analysis.exact import ExactSolver, _finished, _pending_staked, _Row, _solve_linear
from tapete.engine.events import Bet
from tapete.engine.game import EdgeCase, Game


@dataclass(frozen=True)
class Moments:
    """Per unit initially staked: the net result's mean and second moment, the expected total staked, and the
    probabilities of a win (more returned than staked) and of a push (as much returned as staked)."""

    mean: Fraction
    second: Fraction
    staked: Fraction
    win: Fraction | None
    push: Fraction | None

    @property
    def variance(self) -> Fraction:
        return self.second - self.mean * self.mean

    @property
    def sd(self) -> float:
        return math.sqrt(float(self.variance))


@dataclass
class _Transition:
    p: Fraction
    net: Fraction          # money moved now: returned minus newly staked
    staked: Fraction       # newly staked
    key: Hashable | None   # the next state's key, None when the round is over
    scale: Fraction
    outcome: int           # when over: 1 win, 0 push, -1 loss


@dataclass
class _State:
    scale: Fraction
    moves: list[_Transition] = field(default_factory=list)


class MomentSolver(ExactSolver):
    """Moments of everything on the table (or of the bet `only`) from a state, following `option` at decisions."""

    first: dict[Hashable, list[Fraction]]     # after `moments`: the expected (net, staked) of each key, scale 1

    def expected_net(self, state: Any, unit: int) -> Fraction:
        """After `moments(start)`: the expected net result per unit from a state met on the way (what is already
        decided included)."""
        settled = self.game.settle(state)
        ret, stk = _finished(settled, self.only)
        base = ret - stk - _pending_staked(settled, self.only)
        if not self._live(state):
            return base / unit
        key, scale = self.game.analysis_key(state)
        return (base + scale * self.first[key][0]) / unit

    def _live(self, state: Any) -> bool:
        return bool(self.game.chance(state)) or self.game.decision(state, self.option) is not None

    def _graph(self, start: Any) -> tuple[Hashable, dict[Hashable, _State], bool]:
        root, _ = self.game.analysis_key(start)
        stack, seen, graph, steady = [start], {root}, {}, True
        scales: dict[Hashable, Fraction] = {}
        while stack:
            state = stack.pop()
            key, scale = self.game.analysis_key(state)
            settled = self.game.settle(state)
            node = _State(scale)
            for p, nxt in self._successors(state):
                after = self.game.settle(nxt)
                d_ret, d_stk = self._delta(settled, after)
                nkey, nscale = self.game.analysis_key(nxt)
                if self._live(nxt):
                    steady &= scales.setdefault(nkey, nscale) == nscale
                    node.moves.append(_Transition(p, d_ret - d_stk, d_stk, nkey, nscale, 0))
                    if nkey not in seen:
                        seen.add(nkey)
                        stack.append(nxt)
                        if len(seen) > self.max_states:
                            raise RuntimeError(f"more than {self.max_states} states: not solvable by enumeration")
                else:
                    ret, stk = _finished(after, self.only)
                    stk += _pending_staked(after, self.only)
                    node.moves.append(_Transition(p, d_ret - d_stk, d_stk, None, Fraction(1), (ret > stk) - (ret < stk)))
            graph[key] = node
        return root, graph, steady

    def moments(self, start: Any, unit: int) -> Moments:
        """The moments of the net result from `start` (what is already decided included), per `unit` staked."""
        settled = self.game.settle(start)
        ret0, stk0 = _finished(settled, self.only)
        stk0 += _pending_staked(settled, self.only)
        base = ret0 - stk0
        if not self._live(start):
            out = (ret0 > stk0) - (ret0 < stk0)
            return Moments(base / unit, base * base / unit / unit, stk0 / unit, Fraction(out == 1), Fraction(out == 0))
        root, graph, steady = self._graph(start)
        self.first = first = _solve_linear({k: _Row(n.scale, [sum((m.p * m.net for m in n.moves), Fraction(0)),
                                                  sum((m.p * m.staked for m in n.moves), Fraction(0))],
                                       _coefs(n, lambda m: m.p * m.scale)) for k, n in graph.items()})

        def value(key: Hashable | None, scale: Fraction) -> Fraction:
            return Fraction(0) if key is None else scale * first[key][0]

        second = _solve_linear({k: _Row(n.scale * n.scale,
                                        [sum((m.p * (m.net * m.net + 2 * m.net * value(m.key, m.scale)) for m in n.moves),
                                             Fraction(0)), Fraction(0)],
                                        _coefs(n, lambda m: m.p * m.scale * m.scale)) for k, n in graph.items()})
        s = graph[root].scale
        v1, v2, staked = s * first[root][0], s * s * second[root][0], s * first[root][1]
        win = push = None
        if steady:
            odds = _solve_linear({k: _Row(Fraction(1), [sum((m.p for m in n.moves if m.key is None and m.outcome == 1),
                                                            Fraction(0)),
                                                        sum((m.p for m in n.moves if m.key is None and m.outcome == 0),
                                                            Fraction(0))],
                                          _coefs(n, lambda m: m.p)) for k, n in graph.items()})
            win, push = odds[root]
        return Moments((base + v1) / unit, (base * base + 2 * base * v1 + v2) / unit / unit, (stk0 + staked) / unit,
                       win, push)


def _coefs(node: _State, weight: Any) -> dict[Hashable, Fraction]:
    out: dict[Hashable, Fraction] = {}
    for m in node.moves:
        if m.key is not None:
            out[m.key] = out.get(m.key, Fraction(0)) + weight(m)
    return out


def opened(game: Game, jurisdiction: str, case: EdgeCase) -> Any:
    """The fresh table of an edge case with its setup played and its bet (id `edge`) laid, as `edge_of` lays it."""
    state = game.open(jurisdiction, case.table)
    for event in case.setup:
        state = game.step(state, event)
    return game.step(state, Bet("edge", "player", case.kind, case.amount, case.on, dict(case.extra)))


def case_moments(game: Game, jurisdiction: str, case: EdgeCase) -> Moments:
    """The exact moments of one edge case's bet, per unit of its amount."""
    solver = MomentSolver(game, case.option, only="edge" if case.setup else None)
    return solver.moments(opened(game, jurisdiction, case), case.amount)
