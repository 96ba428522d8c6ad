"""The combination of each hand of a finished banked-poker coup, named by the engine's own evaluator, for the
table page (issue 20: the croupier's hand kept on the table after the coup, the winning combination named).

Tripóquer names its three-card hands in `views.named_hands`; here the five-card games: *póquer sin descarte*
(each box's five against the croupier's five), *Trijoker* (a box's three with the two common cards) and *Pai Gow*
(each seat's big hand of five and small hand of two, set by the player or by the house way, as the engine
settles it). Nothing here decides a payout: it names what the engine's evaluator ranks.
"""

from __future__ import annotations

from typing import Any

CARD_GAMES = ("poker-sin-descarte", "trijoker", "pai-gow")


def five_card_names(doc: dict[str, Any], is_card_list: Any) -> dict[str, str]:
    """`{"2": "flush", "croupier": "pair"}`; Pai Gow: `{"2": "flush+pair"}` (the big hand, then the small)."""
    game = doc.get("game")
    rnd = doc.get("round")
    hands = rnd.get("hands") if isinstance(rnd, dict) else None
    if game not in CARD_GAMES or not isinstance(hands, dict):
        return {}
    from tapete.games.poker import evaluator as ev

    config = doc.get("config") or {}
    if game == "poker-sin-descarte":
        return {k: ev.category(ev.rank5(c)) for k, c in hands.items() if is_card_list(c) and len(c) == 5}
    if game == "trijoker":
        from tapete.games.poker.trijoker import NO_WHEEL

        common = list(hands.get("left") or []) + list(hands.get("right") or [])
        rules = ev.STANDARD if config.get("ace-low", True) else NO_WHEEL
        if len(common) != 2 or not is_card_list(common):
            return {}
        return {k: ev.category(ev.rank5(list(c) + common, rules)) for k, c in hands.items()
                if k not in ("left", "right") and is_card_list(c) and len(c) == 3}
    from tapete.games.poker.pai_gow import house_way

    rules = ev.PAI_GOW if config.get("joker", "ace-or-completes") == "ace-or-completes" else ev.PAI_GOW_LITERAL
    settings = (rnd.get("data") or {}).get("settings") or {}
    out = {}
    for seat, cards in hands.items():
        if not is_card_list(cards) or len(cards) != 7:
            continue
        done = settings.get(seat)
        high, low = (done["high"], done["low"]) if isinstance(done, dict) else house_way(list(cards), rules)
        if len(high) == 5 and len(low) == 2:
            out[seat] = f"{ev.category(ev.rank5(high, rules))}+{ev.category(ev.rank2(low, rules))}"
    return out


def face_up(doc: dict[str, Any], out: dict[str, Any]) -> None:
    """*Póquer sin descarte*: the croupier's card dealt face up (003:3142-3144, 000:1335) is on the table for all
    while the boxes decide; the masked view shows it in its place in his hand and as `round.data.upcard`."""
    rnd, shown = doc.get("round"), out.get("round")
    if doc.get("game") != "poker-sin-descarte" or not isinstance(rnd, dict) or not isinstance(shown, dict):
        return
    up = (rnd.get("data") or {}).get("upcard")
    hand = (rnd.get("hands") or {}).get("croupier")
    if not isinstance(up, str) or not isinstance(hand, list) or up not in hand:
        return
    shown.setdefault("data", {})["upcard"] = up
    mine = (shown.get("hands") or {}).get("croupier")
    if isinstance(mine, list) and len(mine) == len(hand):
        mine[hand.index(up)] = up
