"""What the browser pages read besides the API's commands: the public view of a table's engine state,
the layout of every bet kind on a fresh table, and the blackjack strategy hint.

Nothing here decides a rule: the view is the engine's own state document with the shoe's undealt cards
taken out, the layout is `legal_actions` of a freshly opened state, the hint is `tapete strategy`'s chart.
"""

from __future__ import annotations

import re
from typing import Any

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.game import Game
from tapete.engine.serialize import to_json
from tapete.server.tables.shoes import open_state

HIDDEN_KEYS = ("seed",)          # never leave the server before the shoe ends
SHOE_KEYS = ("shoe", "deck", "stub", "future", "packet")    # cards still to come, by any game's name for them
CARD = re.compile(r"^(?:[2-9TJQKA]|1[0-2]|[1-9])[SHDCoceb]$|^X\d+$")
# Games whose table shows every dealt card face up (no hole cards while decisions are due): their view keeps
# the cards. Every other card game's view masks each card: a hole card is its holder's secret, and the
# server has no per-seat view of the engine state yet.
FACE_UP = frozenset({"blackjack", "punto-banca", "baccarat-two-tables", "trente-quarante", "casino-monte",
                     "monte-banca"})   # monte-banca: the layout and the revealed cards lie face up (003:6160-6186)
MASK = "??"
HAND_KEYS = ("hands", "cards", "boxes")     # mappings in which games file a box's hand under its number


def _cards(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(c, str) and CARD.match(c) for c in value)


def redact(doc: Any, mask: bool = False, mine: frozenset[str] = frozenset(), parent: str = "") -> Any:
    """The state document as the table shows it: a shoe (by whatever name) keeps only how many cards left it
    and how many are still in it (the order of the cards to come is secret); no seed; with `mask`, every
    card and the engine's own narration (which names them) hidden, except a hand keyed by one of the viewer's
    boxes (`mine`: "1" or "box 1", in a `hands`/`cards` mapping), which its player sees."""
    if isinstance(doc, list):
        if mask and _cards(doc):
            return [MASK] * len(doc)
        return [redact(x, mask, mine) for x in doc]
    if isinstance(doc, str):
        return MASK if mask and CARD.match(doc) else doc
    if not isinstance(doc, dict):
        return doc
    if "cards" in doc and "position" in doc and isinstance(doc["cards"], list):
        cards, position = doc["cards"], int(doc["position"] or 0)
        return {"dealt": position, "remaining": max(len(cards) - position, 0), "cut_index": doc.get("cut_index"),
                "decks": doc.get("decks")}
    out: dict[str, Any] = {}
    position = doc.get("pos", doc.get("position"))
    for k, v in doc.items():
        if k in HIDDEN_KEYS:
            continue
        if k in SHOE_KEYS and isinstance(v, list):
            dealt = int(position) if isinstance(position, int) else 0
            out[k] = {"dealt": dealt, "remaining": max(len(v) - dealt, 0)}
        elif mask and k in ("log", "history", "seen"):
            out[k] = []
        else:
            own = k in mine and parent in HAND_KEYS
            out[k] = redact(v, mask and not own, mine, k)
    return out


# turned up at the end of a banked coup, for every player (Trijoker's two common cards: `left`, `right`)
OPEN_AT_THE_END = frozenset({"croupier", "dealer", "left", "right"})


def state_view(state: Any, viewer: str | None = None, over: bool = False) -> dict[str, Any] | None:
    """The document of a table's current engine state as `viewer` may see it (None before its first round):
    at a game with hole cards, a player sees the hands of the boxes they bet on, nobody else's; once the coup
    is settled (`over`), the croupier's hand too, with the combination of each hand shown (`named`)."""
    if state is None:
        return None
    return doc_view(to_json(state), viewer, over, state)


def doc_view(doc: Any, viewer: str | None = None, over: bool = False, state: Any = None) -> dict[str, Any] | None:
    """`state_view` of a state document (a stored coup's, when `state` is None)."""
    game = doc.get("game") if isinstance(doc, dict) else None
    hidden = bool(game) and game not in FACE_UP and get_game(game).uses_shoe
    mine = viewer_boxes(doc, viewer) if hidden else frozenset()
    if over:
        mine = mine | OPEN_AT_THE_END
    out = redact(doc, mask=hidden, mine=mine)
    if hidden and isinstance(out, dict):
        from tapete.server.tables.poker_names import face_up

        face_up(doc, out)                     # a card the croupier deals face up: on the table for all
    if over and isinstance(out, dict):
        named = named_hands(doc)
        out["named"] = {k: v for k, v in named.items() if not hidden or k in mine}
    if hidden and isinstance(doc.get("hand"), dict):
        seated_hand(doc["hand"], out["hand"], viewer)
        if game == "holdem":
            out["hand"]["named"] = showdown_names(doc["hand"], out["hand"].get("shown") or [])
    if game == "blackjack" and isinstance(out, dict):
        blackjack_totals(out)
    if state is not None and isinstance(out, dict) and isinstance(out.get("hand"), dict):
        pots = circle_pots(state)
        if pots is not None:
            out["hand"]["pots"] = pots
    if hidden and state is not None:
        from tapete.server.tables.banker import reveal

        reveal(get_game(game), state, doc, out, viewer, MASK)   # a player's bank: the holders see their hands
    if isinstance(out, dict):
        from tapete.server.tables.baccarat_points import hand_totals

        hand_totals(out)                  # chemin de fer, dos paños: each hand's points as the viewer sees it
    return out


def named_hands(doc: dict[str, Any]) -> dict[str, str]:
    """The combination of each three-card hand of a finished tripóquer coup (the engine's evaluator and the
    table's rank order): `{"croupier": "pair", "2": "straight"}`."""
    rnd = doc.get("round")
    hands = rnd.get("hands") if isinstance(rnd, dict) else None
    if doc.get("game") != "tripoker" or not isinstance(hands, dict):
        from tapete.server.tables.poker_names import five_card_names

        return five_card_names(doc, _cards) if isinstance(doc, dict) else {}
    from tapete.games.poker.evaluator import category
    from tapete.games.poker.tripoker import strength3

    order = (doc.get("config") or {}).get("order", "sf-3k-st-fl")
    return {k: category(strength3(list(cards), order)) for k, cards in hands.items() if _cards(cards) and len(cards) == 3}


def showdown_names(raw: dict[str, Any], shown: list[int]) -> dict[str, str]:
    """The combination each seat showed down at a finished hold'em hand (best five of its two and the board,
    by the engine's evaluator): `{"0": "two-pair"}`."""
    from tapete.games.poker.evaluator import best5, category

    holes, board = raw.get("holes") or [], list(raw.get("board") or [])
    out = {}
    for i in shown:
        cards = list(holes[i]) + board if i < len(holes) else []
        if 5 <= len(cards) <= 7 and _cards(cards):
            out[str(i)] = category(best5(cards)[0])
    return out


def blackjack_totals(out: dict[str, Any]) -> None:
    """Each blackjack hand's total as the engine counts it (an ace 1 or 11 for the player; the dealer's by
    the dealer's rule), for the boxes and the dealer on the page."""
    from tapete.games.blackjack.hand import dealer_total, player_total, value

    for h in out.get("hands") or []:
        if isinstance(h, dict) and _cards(h.get("cards")):
            h["total"] = player_total([value(c) for c in h["cards"]])
    dealer = out.get("dealer")
    if _cards(dealer):
        values = [value(c) for c in dealer]    # one card up: the ace shown as 11, as a player reads it
        out["dealer_total"] = player_total(values) if len(values) == 1 else dealer_total(values)


def circle_pots(state: Any) -> list[dict[str, Any]] | None:
    """A circle hand's main pot and side pots, by the engine's own rules (R-UNCALLED, R-SIDEPOTS):
    `[{"amount": 1200, "seats": [0, 2]}, ...]`, seat indices into `betting.seats`."""
    hand = getattr(state, "hand", None)
    betting = getattr(hand, "betting", None)
    config = getattr(state, "config", None)
    if betting is None or config is None:
        return None
    from tapete.games.poker import betting as bt

    over = getattr(hand, "phase", "") == "over"       # an unmatched bet goes back at the end (R-UNCALLED), not before
    refund = bt.uncalled(betting) if over and getattr(config, "uncalled", "returned") == "returned" else {}
    return [{"amount": p.amount, "seats": list(p.eligible)} for p in bt.build_pots(betting, refund)]


PUBLIC_BOARD = ("board", "board2", "common")      # a circle hand's community cards: on the table for all


def seated_hand(raw: dict[str, Any], out: dict[str, Any], viewer: str | None) -> None:
    """A circle poker hand files hole cards by seat (`holes[i]` for `betting.seats[i]`, `up[i][j]` a card dealt
    face up): the viewer sees their own, everyone sees the face-up ones and the board."""
    seats = (raw.get("betting") or {}).get("seats") or []
    holes, up = raw.get("holes") or [], raw.get("up") or []
    if len(seats) != len(holes):
        return
    shown = shown_down(raw, len(seats))
    out["holes"] = [[c if seat.get("player") == viewer or i in shown or (i < len(up) and j < len(up[i]) and up[i][j]) else MASK
                     for j, c in enumerate(cards)] for i, (seat, cards) in enumerate(zip(seats, holes, strict=True))]
    for key in PUBLIC_BOARD:
        if key in raw:
            out[key] = raw[key]
    if raw.get("phase") == "over":
        out["shown"] = sorted(shown)


def shown_down(raw: dict[str, Any], n: int) -> set[int]:
    """The seats (indices) whose cards were shown at the showdown of a finished circle hand: on the table for
    all from then on. The hand's PHH history writes a show as `p<k> sm <cards>` (a muck: `p<k> sm`)."""
    if raw.get("phase") != "over":
        return set()
    history = raw.get("history") or []
    start = max((k + 1 for k, line in enumerate(history) if line.startswith("#")), default=0)
    out = set()
    for line in history[start:]:
        parts = line.split()
        if len(parts) == 3 and parts[1] == "sm" and parts[0][:1] == "p" and parts[0][1:].isdigit():
            k = int(parts[0][1:]) - 1
            if 0 <= k < n:
                out.add(k)
    return out


def viewer_boxes(doc: dict[str, Any], viewer: str | None) -> frozenset[str]:
    """The keys under which the engine files the hands of the viewer's boxes ("1", "box 1")."""
    bets = doc.get("bets") if isinstance(doc.get("bets"), list) else []
    boxes = {b["box"] for b in bets if isinstance(b, dict) and viewer and b.get("player") == viewer and b.get("box")}
    return frozenset(k for box in boxes for k in (str(box), f"box {box}"))


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
