"""What the browser pages read besides the API's commands: the layout of every bet kind on a fresh table, and
the blackjack strategy hint. What a viewer may see of a table's state (the view) is decided in
`tapete.server.tables.visibility`, re-exported here under its old names.

Nothing here decides a rule: the layout is `legal_actions` of a freshly opened state, the hint is `tapete
strategy`'s chart.
"""

from __future__ import annotations

from typing import Any

from tapete.core.errors import TapeteError
from tapete.engine.game import Game
from tapete.server.tables.shoes import open_state
from tapete.server.tables.visibility import (  # noqa: F401 - the view's functions, by their old names
    CARD,
    FACE_UP,
    MASK,
    doc_view,
    redact,
    state_view,
)


def layout(game: Game, jurisdiction: str, config: dict[str, Any]) -> list[dict[str, Any]]:
    """Every bet kind the engine offers on a fresh table of these limits, with its targets: what the pages
    draw (a roulette cloth, a craps layout) before and between rounds."""
    try:
        state = open_state(game, jurisdiction, dict(config), "croupier", seed=None)
        actions = game.legal_actions(state)
    except TapeteError:
        return []
    out = []
    for a in actions:
        if a.verb == "bet":
            out.append({"kind": a.kind, "minimum": a.minimum, "maximum": a.maximum,
                        "targets": [list(t) if isinstance(t, tuple) else t for t in (a.targets or ())]})
    return out


def blackjack_hint(state: Any, jurisdiction: str, bet_id: str) -> dict[str, Any]:
    """The derived basic-strategy chart's verb (tapete strategy) for the hand the bet is playing now."""
    from tapete.analysis.blackjack import advice

    bet = next((b for b in getattr(state, "bets", []) if getattr(b, "id", None) == bet_id), None)
    if bet is None:
        raise TapeteError("unknown-bet", f"no bet {bet_id!r} on this table")
    hands = [h for h in getattr(state, "hands", []) if h.box == bet.box]
    turn = getattr(state, "turn", None)
    turn = -1 if turn is None else turn
    all_hands = list(getattr(state, "hands", []))
    hand = all_hands[turn] if 0 <= turn < len(all_hands) and all_hands[turn].box == bet.box else None
    hand = hand or next((h for h in hands if h.status == "live"), None)
    dealer = list(getattr(state, "dealer", []))
    if hand is None or not dealer or len(hand.cards) < 2:
        raise TapeteError("wrong-phase", "no hand of this bet awaits a decision")
    verb = advice(jurisdiction, list(hand.cards), dealer[0], split=hand.split, split_aces=hand.split_aces,
                  first_decision=len(hand.cards) == 2 and not hand.split, hands=len(hands))
    return {"bet": bet_id, "box": bet.box, "cards": list(hand.cards), "dealer": dealer[0], "advice": verb,
            "source": "tapete strategy (the derived basic-strategy chart)"}


def with_coup_totals(game_id: str, doc: dict[str, Any]) -> dict[str, Any]:
    """Punto y banca: each shown coup's two totals, counted by the engine's own tableau (001:640), so that the
    page says "the bank wins 7 to 5" with the hands rather than count cards itself (issue 31, item 5)."""
    if game_id != "punto-banca":
        return doc
    from tapete.games.baccarat.tableau import total

    def mark(coups: Any) -> None:
        for coup in coups if isinstance(coups, list) else []:
            cards = [coup.get("player"), coup.get("bank")] if isinstance(coup, dict) else []
            if cards and all(isinstance(h, list) and all(isinstance(c, str) and c != "??" for c in h) for h in cards):
                coup["player_total"], coup["bank_total"] = total(coup["player"]), total(coup["bank"])

    if isinstance(doc.get("state"), dict):
        mark(doc["state"].get("coups"))
    for past in doc.get("recent") or []:
        if isinstance(past, dict):
            mark(past.get("coups"))
    return doc
