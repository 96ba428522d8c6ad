"""The analysis of every game, keyed by game id: its exact solver, its simulation kernel, its PAR-sheet extras.

The rules (tapete.games) never import the analysis: this module imports them, only when a figure is asked for.
A game absent from `SOLVERS` is solved by the generic enumeration over its own `chance`/`step`/`settle`
(`exact.generic_edges`); one absent from `KERNELS` is simulated by `simulate.GenericKernel`. Heavy modules
(Numba kernels) are imported inside the entries, so importing the registry costs nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from tapete.engine.events import Bet
from tapete.engine.game import EdgeCase, Game

Solver = Callable[[Game, str], list[Any]]          # (game, jurisdiction) -> list[EdgeResult]
KernelFactory = Callable[[Game, str], Any]         # (game, jurisdiction) -> object with run(specs, rounds, gen)


# ------------------------------------------------------------------------------------------------ exact solvers
def _craps(game: Game, jurisdiction: str) -> list[Any]:
    """Every case by the generic solver (`edge_of`), one line per target: odds on every number of every
    parent (all true odds, so the generic grouping would fold them into one line)."""
    from tapete.analysis.exact import edge_of

    out = []
    for case in game.edge_cases(jurisdiction):
        result = edge_of(game, jurisdiction, case)
        if case.kind == "odds":
            parent = next(e for e in case.setup if isinstance(e, Bet))
            total = sum(case.setup[-1].value)  # type: ignore[union-attr]
            result = dataclasses.replace(result, on=(parent.kind, total))
        out.append(result)
    return out + _craps_with_odds(game, jurisdiction, out)


def _craps_with_odds(game: Game, jurisdiction: str, lines: list[Any]) -> list[Any]:
    """Each line bet with the catalog's maximum odds behind it on every number it travels to (option `max-odds`):
    the house edge per unit of the line bet, and the element of risk per unit wagered, line and odds together."""
    from tapete.analysis.exact import EdgeResult, Stakes

    rules = game.rules_for(jurisdiction)
    ways = {n: Fraction(6 - abs(n - 7), 36) for n in rules.points}
    out = []
    for line in (r for r in lines if r.kind in ("pass", "dont-pass", "come", "dont-come") and r.option is None):
        right = line.kind in ("pass", "come")
        multiple = {n: rules.odds_maximum if right else rules.lay_odds_maximum[n] for n in rules.points}
        odds = {r.on[1]: r.house_edge for r in lines if r.kind == "odds" and r.on and r.on[0] == line.kind}
        edge = line.house_edge + sum((ways[n] * multiple[n] * odds[n] for n in rules.points), Fraction(0))
        wagered = 1 + sum((ways[n] * multiple[n] for n in rules.points), Fraction(0))
        source = rules.sources["odds_maximum" if right else "lay_odds_maximum"]
        how = (f"the line bet, then odds of {'the' if right else 'its lay'} maximum ({source}) on the number it "
               "travels to: " + ", ".join(f"{n}: {m} x" for n, m in multiple.items()))
        out.append(EdgeResult(line.kind, None, "max-odds", edge, "exact", "per unit of the line bet; " + how,
                              stakes=Stakes(Fraction(1), wagered, how)))
    return out


def _roulette_american(game: Game, jurisdiction: str) -> list[Any]:
    """The cloth's bets as usual; where the catalog has announced bets (000:244-258), each one's edge per unit it
    stakes (its amount is one chip's value)."""
    from tapete.analysis.exact import EdgeResult, edge_of, generic_edges
    from tapete.games.roulette import layout
    from tapete.games.roulette.rules import ANNOUNCED, ANNOUNCED_CHIPS, AmericanRules

    rules = game.rules_for(jurisdiction)
    if not (isinstance(rules, AmericanRules) and rules.announced == "catalog"):
        return generic_edges(game, jurisdiction)
    cloth = generic_edges(game, jurisdiction, [c for c in game.edge_cases(jurisdiction) if c.kind not in ANNOUNCED])
    announced = []
    for kind in ANNOUNCED:
        cases = [EdgeCase(kind, on, None, table={"minimum": 100}, amount=100)
                 for on in ([(n,) for n in layout.NUMBERS] if kind == "neighbours" else [None])]
        found = {edge_of(game, jurisdiction, c).house_edge / ANNOUNCED_CHIPS[kind] for c in cases}
        if len(found) == 1:
            announced.append(EdgeResult(kind, None, None, found.pop()))
    return cloth + announced


def _pool(kind: str, module: str) -> Solver:
    """A pari-mutuel pool's edge is the organiser's share: 100 % less the prize percentage's minimum.
    R: docs/rulings.md#pools-edge"""

    def solve(game: Game, jurisdiction: str) -> list[Any]:
        import importlib

        from tapete.analysis.exact import EdgeResult

        game.rules_for(jurisdiction)
        share = importlib.import_module(module).RULES.prize_percentage_minimum
        return [EdgeResult(kind, None, f"prize-percentage={share}", Fraction(100 - share, 100), "exact")]

    return solve


def _bingo(game: Game, jurisdiction: str) -> list[Any]:
    """No edge: the prizes are amounts announced per game from percentages that are not in the seeds (001:1122).
    R: docs/rulings.md#pools-edge"""
    game.rules_for(jurisdiction)
    return []


def _by_rules(module: str, function: str) -> Solver:
    """A solver that takes the jurisdiction's rules object (blackjack, trente et quarante)."""

    def solve(game: Game, jurisdiction: str) -> list[Any]:
        import importlib

        return getattr(importlib.import_module(module), function)(game.rules_for(jurisdiction))

    return solve


def _by_game(module: str, function: str) -> Solver:
    """A solver that takes (game, jurisdiction) itself (baccarat, Monte)."""

    def solve(game: Game, jurisdiction: str) -> list[Any]:
        import importlib

        game.rules_for(jurisdiction)
        return getattr(importlib.import_module(module), function)(game, jurisdiction)  # type: ignore[no-any-return]

    return solve


def _by_jurisdiction(module: str, function: str) -> Solver:
    """A solver that takes the jurisdiction code only (the banked poker games)."""

    def solve(game: Game, jurisdiction: str) -> list[Any]:
        import importlib

        game.rules_for(jurisdiction)
        return getattr(importlib.import_module(module), function)(jurisdiction)  # type: ignore[no-any-return]

    return solve


SOLVERS: dict[str, Solver] = {
    "craps": _craps,
    "roulette-american": _roulette_american,
    "blackjack": _by_rules("tapete.analysis.blackjack", "exact_edges"),
    "trente-quarante": _by_rules("tapete.analysis.trente_quarante", "exact_edges"),
    "punto-banca": _by_game("tapete.analysis.baccarat", "punto_banca_edges"),
    "chemin-de-fer": _by_game("tapete.analysis.baccarat", "chemin_de_fer_edges"),
    "baccarat-two-tables": _by_game("tapete.analysis.baccarat", "two_tables_edges"),
    "casino-monte": _by_game("tapete.analysis.monte", "casino_monte_edges"),
    "monte-banca": _by_game("tapete.analysis.monte", "monte_banca_edges"),
    "poker-sin-descarte": _by_jurisdiction("tapete.analysis.banked_poker", "sin_descarte_edges"),
    "trijoker": _by_jurisdiction("tapete.analysis.banked_poker", "trijoker_edges"),
    "tripoker": _by_jurisdiction("tapete.analysis.banked_poker", "tripoker_edges"),
    "pai-gow": _by_jurisdiction("tapete.analysis.banked_poker", "pai_gow_edges"),
    "lototrot": _pool("pick-7", "tapete.games.lototrot"),
    "promotrot": _pool("ticket", "tapete.games.promotrot"),
    "bingo": _bingo,
}


# ------------------------------------------------------------------------------------------------ simulation kernels
def _kernel(module: str, name: str) -> KernelFactory:
    """`tapete simulate GAME` runs the compiled kernel class `name` of `module` (imported when asked for)."""

    def factory(game: Game, jurisdiction: str) -> Any:
        import importlib

        return getattr(importlib.import_module(module), name)(game, jurisdiction)

    return factory


KERNELS: dict[str, KernelFactory] = {
    "blackjack": _kernel("tapete.analysis.blackjack_sim", "BlackjackKernel"),
    "trente-quarante": _kernel("tapete.analysis.trente_quarante", "TrenteQuaranteKernel"),
    "punto-banca": _kernel("tapete.analysis.baccarat_sim", "PuntoBancaKernel"),
    "casino-monte": _kernel("tapete.analysis.monte_sim", "CasinoMonteKernel"),
    "monte-banca": _kernel("tapete.analysis.monte_sim", "MonteBancaKernel"),
    "poker-sin-descarte": _kernel("tapete.analysis.banked_poker", "SinDescarteKernel"),
    "trijoker": _kernel("tapete.analysis.banked_poker", "TrijokerKernel"),
    "tripoker": _kernel("tapete.analysis.banked_poker", "TripokerKernel"),
    "pai-gow": _kernel("tapete.analysis.banked_poker", "PaiGowKernel"),
}


# ------------------------------------------------------------------------------------------------ PAR-sheet extras
# game id -> what `tapete par` needs beyond the edge and the simulation, as "module:function" (imported when asked):
#   law(game, jurisdiction, line) -> the exact outcome rows of a bet (list[par.Row]) or None;
#   wager(game, jurisdiction, line, sheet) -> (average total wager per unit of the bet, how it is known) or None
#     (a line's `stakes`, where it has them, come first);
#   resolved(game, jurisdiction, line) -> (house edge per bet resolved, how: the figure's own run) or None.
PAR_EXTRAS: dict[str, dict[str, str]] = {
    "punto-banca": {"law": "tapete.analysis.par:punto_banca_law"},
    "blackjack": {"wager": "tapete.analysis.blackjack:par_wager"},
    "pai-gow": {"resolved": "tapete.analysis.banked_poker:pai_gow_resolved"},
}


def par_extra(game_id: str, name: str) -> Callable[..., Any] | None:
    """The game's PAR-sheet extra `name` (law, wager), or None."""
    import importlib

    ref = PAR_EXTRAS.get(game_id, {}).get(name)
    if ref is None:
        return None
    module, function = ref.split(":")
    return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]


def exact_solver(game_id: str) -> Solver | None:
    """The game's own exact analysis, or None: the generic enumeration over its reducer."""
    return SOLVERS.get(game_id)


def kernel_factory(game_id: str) -> KernelFactory | None:
    """The game's compiled simulation kernel, or None: the generic outcome-table kernel."""
    return KERNELS.get(game_id)
