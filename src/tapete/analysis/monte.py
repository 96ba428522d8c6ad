"""Exact edges of Andalucía's two Monte games, by running the game's own reducer over every class of cards with
its exact probability (the cards come from a shoe, so the games have no `chance` for the generic solver).

Casino Monte: the first deal's rank pair and, after a tie, the rematch pair, from a full six-deck shoe.
Monte o banca: the revealed cards of a coup on a clean layout (four values, no burn, no doubling) in classes the
bets cannot tell apart. The simulation kernels (monte_sim.py) settle their classes through `casino_run` and
`banca_settle_with` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product
from typing import Any

from tapete.analysis.exact import EdgeResult
from tapete.core.cards import FRENCH_RANKS
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.settlement import BetResult
from tapete.games.monte import SUIT_KINDS, CasinoMonte, MonteBanca


# ------------------------------------------------------------------------------------------------ Casino Monte
def casino_run(game: CasinoMonte, jurisdiction: str, ranks: Sequence[int], bets: list[Bet],
               option: str | None) -> dict[str, BetResult]:
    """The reducer over a shoe whose cards have the given ranks (suits spread so no card repeats)."""
    shoe = [FRENCH_RANKS[r] + "SHDC"[k % 4] for k, r in enumerate(ranks)]
    state = game.open(jurisdiction, {"minimum": 100, "rematch-burn": 1}, shoe)
    for bet in bets:
        game.apply(state, bet)
    game.apply(state, Deal())
    if option in ("rematch", "surrender"):
        for b in list(state.bets):
            if b.state == "tied":
                game.apply(state, Act(option, bet=b.id))
    return game.settle(game.finish(state)).bets


def casino_monte_edges(game: CasinoMonte, jurisdiction: str) -> list[EdgeResult]:
    """Enumerate the first deal's rank pair and, after a tie, the rematch pair, from a full six-deck shoe (the
    five opening burns and the rematch burn are unseen, so they leave the distribution unchanged)."""
    rules = game.rules_for(jurisdiction)
    per_rank = 4 * rules.decks
    total = 13 * per_rank
    main = Bet("m", "p", "main", 100, None, {"box": 1})
    tie = Bet("t", "p", "tie", 100, None, {"box": 1})
    out: list[EdgeResult] = []
    for kind, option in (("main", "rematch"), ("main", "surrender"), ("tie", None)):
        staked = returned = Fraction(0)
        for p, c in product(range(13), repeat=2):
            prob = Fraction(per_rank, total) * Fraction(per_rank - (p == c), total - 1)
            if p != c or option != "rematch":
                res = casino_run(game, jurisdiction, [p, c, 0, 0, 0, 0], [main, tie], option or "surrender")
                r = res["t" if kind == "tie" else "m"]
                staked += prob * r.staked
                returned += prob * r.returned
                continue
            counts = [per_rank - 2 * (k == p) for k in range(13)]
            for p2, c2 in product(range(13), repeat=2):
                q = Fraction(counts[p2], total - 2) * Fraction(counts[c2] - (p2 == c2), total - 3)
                if q == 0:
                    continue
                burn = next(k for k in range(13) if k not in (p, p2, c2))
                r = casino_run(game, jurisdiction, [p, c, burn, p2, c2], [main, tie], option)["m"]
                staked += prob * q * r.staked
                returned += prob * q * r.returned
        out.append(EdgeResult(kind, None, option, (staked - returned) / 100))
    return out


# ------------------------------------------------------------------------------------------------ Monte o banca
def monte_banca_edges(game: MonteBanca, jurisdiction: str) -> list[EdgeResult]:
    """Exact edges on a clean layout (four values, no burn, no doubling), by enumerating the classes of the
    revealed cards with their exact probabilities and settling each class with the reducer itself.

    Primeras: 76 unseen cards, 7 of each layout value (28 matching), 48 others. Segundas: averaged over how
    many non-matching cards Primeras revealed, each row card then has 7 of its value left among the rest."""
    game.rules_for(jurisdiction)
    out: list[EdgeResult] = []
    for kind in ("first-card", *SUIT_KINDS, "any-suit", "versus"):
        out.append(EdgeResult(kind, None, "primeras", _edge(game, jurisdiction, kind, "primeras")))
    for kind in ("first-card", *SUIT_KINDS, "versus"):
        out.append(EdgeResult(kind, None, "segundas", _edge(game, jurisdiction, kind, "segundas")))
    return out


def banca_settle_with(game: MonteBanca, jurisdiction: str, kind: str, phase: str, primeras: Sequence[str],
                      segundas: Sequence[str]) -> Fraction:
    """What one bet of 100 on P1 (or P1 against P2) returns when these cards are revealed, by the reducer."""
    shoe = ["1o", "2o", "3o", "4o", *primeras, *segundas]
    state = game.open(jurisdiction, {"minimum": 100}, shoe)
    on: tuple[Any, ...] = ([1], [2]) if kind == "versus" else (1,)
    if phase == "primeras":
        game.apply(state, Bet("x", "p", kind, 100, on))
        game.apply(state, Deal())
    else:
        game.apply(state, Deal())
        game.apply(state, Bet("x", "p", kind, 100, on))
    game.apply(state, Deal())
    return game.settle(state).bets["x"].returned


def banca_classes() -> dict[tuple[tuple[str, ...], tuple[str, ...]], Fraction]:
    """The revealed cards of a coup on the clean layout 1o 2o 3o 4o, in classes the bets cannot tell apart,
    with exact probabilities. Primeras: 76 unseen cards, 7 of each layout value, 48 others; k non-matching
    cards come before the match, which is any of the 28 matching cards alike. Segundas: 14 matching cards
    (the other row) among 75 - k; the first card is a match or not."""
    suits = (("o", 1), ("c", 2), ("e", 2), ("b", 2))   # twin, next, opposite, previous of oros
    classes: dict[tuple[tuple[str, ...], tuple[str, ...]], Fraction] = {}
    pk = Fraction(1)
    for k in range(49):
        hit = pk * Fraction(28, 76 - k)
        unseen = 75 - k
        for pos, (suit, n) in product((1, 2, 3, 4), suits):
            prim = ("5o",) * min(k, 1) + (f"{pos}{suit}",)
            row = (1, 2) if pos > 2 else (3, 4)
            for first in (True, False):
                p2 = Fraction(14 if first else unseen - 14, unseen)
                for pos2, (suit2, n2) in product(row, suits):
                    seg = () if first else ("6o",)
                    key = (prim, (*seg, f"{pos2}{suit2}"))
                    classes[key] = classes.get(key, Fraction(0)) + hit * Fraction(n, 28) * p2 * Fraction(n2, 14)
        pk *= Fraction(48 - k, 76 - k)
    return classes


def _edge(game: MonteBanca, jurisdiction: str, kind: str, phase: str) -> Fraction:
    total = weight = Fraction(0)
    for (prim, seg), prob in banca_classes().items():
        if phase == "segundas" and prim[-1][0] in "12":
            continue            # a Segundas bet on P1 needs the row P1-P2 in play
        weight += prob
        total += prob * banca_settle_with(game, jurisdiction, kind, phase, prim, seg)
    return (100 - total / weight) / 100
