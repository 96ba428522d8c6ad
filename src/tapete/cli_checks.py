"""Refusals of questions that have no answer (issue 28 point 4): a sentence saying why, and what applies instead.

An empty table with exit code 0 reads as "nothing to report"; `edge` on hold'em, `simulate bingo` or `diff lototrot`
mean the user asked the wrong command, so each is refused (exit 2) naming the one that answers.
"""

from __future__ import annotations

from typing import Any

from tapete.core.errors import TapeteError

# why a game has no house edge, and the command that does answer for it
_POOLS = {"lototrot": "tapete pool lototrot"}


def no_house_edge(game: Any, jurisdiction: str, command: str) -> TapeteError:
    """`edge`/`simulate` on a game whose bets the house does not bank."""
    if game.id == "bingo":
        why, instead = "its prizes are shares of the card sales, fixed by the prize plan", "tapete bingo"
    elif game.id in _POOLS:
        why, instead = "its players share a pool and the house keeps a set percentage of the stakes", _POOLS[game.id]
    else:
        why, instead = ("its players play against each other and the house takes a commission",
                        f"tapete rules {game.id} -j {jurisdiction}")
    return TapeteError("no-house-edge", f"{command} {game.id}: {game.id} has no house edge to "
                       f"{'compute' if command == 'edge' else 'simulate'}: {why}; `{instead}` applies instead")


def nothing_to_compare(game: Any) -> TapeteError:
    """`diff` on a game that only one catalog has."""
    (code,) = list(game.rules)
    return TapeteError("nothing-to-compare", f"diff {game.id}: only the catalog of {code} has {game.id}, so there "
                       f"is nothing to compare; `tapete rules {game.id} -j {code}` shows its rules")


def check_bet_options(game: Any, jurisdiction: str, specs: list[Any]) -> None:
    """`--bets kind@option`: the option must be one the game offers that kind (`red@prison`, not `red@jail`)."""
    from tapete.analysis.simulate import kernel_for

    strategies: dict[str, tuple[str, ...]] = getattr(kernel_for(game, jurisdiction), "strategies", {}) or {}
    by_kind: dict[str, set[str]] = {}
    for case in game.edge_cases(jurisdiction):
        if case.option is not None:
            by_kind.setdefault(case.kind, set()).add(case.option)
    verbs = set(game.verbs())
    for spec in specs:
        if spec.option is None:
            continue
        known = by_kind.get(spec.kind, set()) | set(strategies.get(spec.kind, ())) | verbs
        if spec.option not in known:
            offer = (f"takes {', '.join(sorted(known))}" if known else "takes no option")
            raise TapeteError("bad-option", f"--bets: {spec.kind}@{spec.option}: {game.id}'s {spec.kind} bet {offer}; "
                              f"not {spec.option!r}")
