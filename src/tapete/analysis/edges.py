"""`tapete edge`: every bet's line, by the game's own solver where the analysis registry names one, else the generic
enumeration. Above both `exact` (the solver and the line) and `registry` (the table of solvers), so that neither
imports the other's caller: exact <- registry <- edges."""

from __future__ import annotations

from fractions import Fraction

from tapete.analysis.exact import EdgeResult, generic_edges
from tapete.analysis.registry import exact_solver
from tapete.core.errors import TapeteError
from tapete.engine.game import Game


def edges(game: Game, jurisdiction: str) -> list[EdgeResult]:
    """`tapete edge`: the game's own solver where the analysis registry names one, else the generic one."""
    solver = exact_solver(game.id)
    if solver is not None:
        return list(solver(game, jurisdiction))
    return generic_edges(game, jurisdiction)


def _fraction(text: str | None, option: str) -> Fraction | None:
    if text is None:
        return None
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise TapeteError("bad-option", f"{option}: a number or a fraction (0.8, 4/5), not {text!r}") from None
    if value < 0:
        raise TapeteError("bad-option", f"{option}: not negative")
    return value


def with_carousel(game_id: str, jurisdiction: str, lines: list[EdgeResult], share: str | None,
                  seed: str | None) -> list[EdgeResult]:
    """`--jackpot-share` / `--jackpot-seed`: the long-run carousel line for that configuration, checked against the
    text (jackpots.check_carousel)."""
    from tapete.analysis.jackpots import carousel_line

    line = carousel_line(game_id, jurisdiction, "long-run", _fraction(share, "--jackpot-share"),
                         _fraction(seed, "--jackpot-seed"))
    if line is None:
        raise TapeteError("bad-option", f"--jackpot-share, --jackpot-seed: {game_id} has no carousel in {jurisdiction}")
    return [line if (r.kind, r.option) == ("jackpot", "long-run") else r for r in lines]
