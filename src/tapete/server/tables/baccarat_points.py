"""The points of each baccarat hand on the table, as the engine counts them (tableau.total: the units of the sum,
001:640; a hand's cards before `zero_from` not counted, a `forced_total` where a rule fixes it), for the pages of
chemin de fer and baccara a dos paños. A hand with a card still face down to the viewer gets no total."""

from __future__ import annotations

from typing import Any

GAMES = ("chemin-de-fer", "baccarat-two-tables")


def hand_totals(out: dict[str, Any]) -> None:
    """Add `total` to every hand of the view's coups (the one being dealt and the settled ones)."""
    if out.get("game") not in GAMES:
        return
    from tapete.games.baccarat.tableau import total

    coups = [out.get("current")] + list(out.get("coups") or [])
    for coup in coups:
        if not isinstance(coup, dict):
            continue
        hands = [coup.get("punto"), coup.get("banker"), *(coup.get("sides") or [])]
        for hand in hands:
            if not isinstance(hand, dict) or not isinstance(hand.get("cards"), list) or not hand["cards"]:
                continue
            cards = hand["cards"][int(hand.get("zero_from") or 0):]
            if "??" in hand["cards"]:
                continue
            forced = hand.get("forced_total")
            hand["total"] = forced if isinstance(forced, int) else total(cards)
