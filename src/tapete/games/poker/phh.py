"""Poker Hand History (PHH) export and import for circle-poker hands.

PHH (https://phh.readthedocs.io) is a TOML file per hand: the variant, forced bets, starting stacks and the
actions — `d dh p1 AcAd` (hole cards), `d db AhKhQh` (board), `p1 cbr 200` (bet or raise to), `p1 cc` (check or
call), `p1 f` (fold), `p1 sd 2c3d` (discard), `p1 sm AcAd` (show) — so other tools, PokerKit among them, can
replay our hands. `p1` is the *mano*, then the players in the order of play, as docs/vocabulary.md §8 deals them.

The variants PHH names get its codes (FT, NT, PO, FO/8, F7S); the others, and everything Spanish (jurisdiction,
structure, rake, seats, the table's options), travel in user-defined fields prefixed `_tapete_`, which PHH
readers ignore. Burn cards are not in PHH; on import they are filled with cards nobody holds.

A file tapete did not write is imported only as written: a hand a Spanish table cannot play — blinds and antes
together, blinds other than m/2 and m, straddles, a posted bring-in (`pb`), amounts with decimals, unknown cards
that reach the showdown — is refused with `phh-unrepresentable`, never settled by other rules
(docs/rulings.md#phh-import-as-written).
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

from tapete.core.cards import FRENCH_RANKS
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal
from tapete.games.poker.circle import GAMES, CircleGame, CircleState, stacked_shoe

# (game, structure) -> PHH variant code, where PHH has one
CODES = {("holdem", "fixed"): "FT", ("holdem", "no-limit"): "NT", ("omaha", "pot-limit"): "PO",
         ("omaha-hilo", "fixed"): "FO/8", ("seven-stud", "fixed"): "F7S"}
BY_CODE = {code: key for key, code in CODES.items()}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} in PHH")


def export_hand(state: CircleState) -> str:
    """The last hand of `state` as a PHH document (TOML text). The hand must be over, in one deal."""
    hand = state.hand
    if hand is None or hand.phase != "over" or hand.carry:
        raise TapeteError("bad-document", "only a finished hand can be exported to PHH")
    b = hand.betting
    cfg = state.config
    n = len(b.seats)
    forced = cfg.forced
    order = phh_order(n, forced)
    seats = [b.seats[i] for i in order]
    accounts = [state.accounts[s.bet] for s in seats]
    start = [s.stack - a.returned + a.staked for s, a in zip(seats, accounts, strict=True)]
    code = CODES.get((state.game, cfg.structure), f"T:{state.game}:{cfg.structure}")
    fields: dict[str, Any] = {"variant": code}
    fields["antes"] = [cfg.ante if forced == "ante" else 0] * n
    if state.game in ("seven-stud", "five-stud"):
        fields["bring_in"] = max(1, cfg.minimum // 2)
    else:
        fields["blinds_or_straddles"] = ([cfg.minimum // 2, cfg.minimum] + [0] * (n - 2)) if forced == "blinds" else [0] * n
    if cfg.structure == "fixed":
        fields["small_bet"], fields["big_bet"] = cfg.minimum, 2 * cfg.minimum
    else:
        fields["min_bet"] = cfg.minimum
    fields["starting_stacks"] = start
    fields["actions"] = [_renumber(a, order) for a in hand.history]
    fields["players"] = [s.player for s in seats]
    fields["seats"] = [s.seat for s in seats]
    fields["seat_count"] = 10
    fields["finishing_stacks"] = [s.stack for s in seats]
    fields["winnings"] = [a.returned for a in accounts]
    table = {k: v for k, v in state.table.items() if k not in ("seats", "button")}
    fields["_tapete_game"] = state.game
    fields["_tapete_jurisdiction"] = state.jurisdiction
    fields["_tapete_table"] = json.dumps(table, sort_keys=True)
    fields["_tapete_bets"] = [s.bet for s in seats]
    fields["_tapete_forced"] = [hand.forced[i] for i in order]
    fields["_tapete_commission"] = sum(a.staked - a.returned for a in accounts)
    return "\n".join(f"{k} = {_toml(v)}" for k, v in fields.items()) + "\n"


def phh_order(n: int, forced: str) -> list[int]:
    """Our play order is PHH's, except heads-up with blinds: PHH's p1 posts the big blind there (PokerKit's
    convention), and our big blind is the second player."""
    return [1, 0] if n == 2 and forced == "blinds" else list(range(n))


def _renumber(action: str, order: list[int]) -> str:
    """Rewrite `pK` (our K-th player) as PHH's number for him."""
    where = {ours: k for k, ours in enumerate(order)}
    return " ".join(f"p{where[int(w[1:]) - 1] + 1}" if w[:1] == "p" and w[1:].isdigit() else w for w in action.split(" "))


def _cards(text: str) -> list[str]:
    if len(text) % 2:
        raise TapeteError("bad-document", f"PHH cards {text!r}")
    return [text[k].upper() + text[k + 1].upper() for k in range(0, len(text), 2)]


UNREPRESENTABLE = "phh-unrepresentable"
NUMERIC = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet", "starting_stacks")


def _refuse(why: str, source: str | None = None) -> TapeteError:
    return TapeteError(UNREPRESENTABLE, f"this PHH hand cannot be played at a Spanish table as written: {why}",
                       source=source)


def import_hand(text: str) -> dict[str, Any]:
    """A PHH document back to a round document (docs/vocabulary.md §8) that tapete settles."""
    try:
        phh = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TapeteError("bad-document", f"PHH is TOML: {exc}") from exc
    _whole_numbers(phh)
    code = phh.get("variant")
    game_id, structure = phh.get("_tapete_game"), None
    if game_id is None:
        if code not in BY_CODE:
            raise TapeteError("bad-document", f"PHH variant {code!r} has no circle variant here (known: "
                              f"{', '.join(BY_CODE)})")
        game_id, structure = BY_CODE[code]
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if not isinstance(game, CircleGame):
        raise TapeteError("bad-document", f"{game_id} is not circle poker")
    stacks = phh["starting_stacks"]
    n = len(stacks)
    players = phh.get("players") or [f"p{k + 1}" for k in range(n)]
    seat_numbers = phh.get("seats") or list(range(n, 0, -1))
    if "_tapete_table" not in phh:      # PHH's order is the play order; its seat numbers need not run our way
        seat_numbers = list(range(n, 0, -1))
    bets = phh.get("_tapete_bets") or [f"h{k + 1}" for k in range(n)]
    if "_tapete_table" in phh:
        table = json.loads(phh["_tapete_table"])
        forced = phh.get("_tapete_forced")
    else:
        table, forced = _foreign_table(phh, structure, n)
    order = phh_order(n, table.get("forced", "ante"))       # PHH position of each of our players
    if forced is None:
        forced = [_forced(table, n)[order.index(k)] for k in range(n)]      # ours, in PHH positions
    players, seat_numbers, stacks, bets, forced = ([xs[order[k]] for k in range(n)]
                                                   for xs in (players, seat_numbers, stacks, bets, forced))
    table["seats"] = [{"seat": s, "player": p, "stack": st} for s, p, st in zip(seat_numbers, players, stacks, strict=True)]
    table["button"] = _button(game_id, seat_numbers)
    jurisdiction = phh.get("_tapete_jurisdiction", "ES-AN")
    raw = [_renumber(a, order) for a in phh.get("actions", [])]
    actions = [a.split("#")[0].split() for a in raw]
    rows = ["row 2" in a.split("#", 1)[1] if "#" in a else False for a in raw]
    shoe, unknown = _shoe(game_id, table, actions, rows, n)
    doc = {"game": game_id, "jurisdiction": jurisdiction, "table": table, "shoe": shoe,
           "events": [{"bet": {"id": bets[k], "player": players[k], "kind": "hand", "amount": forced[k]}} for k in range(n)]
           + [{"deal": {}}]}
    try:
        doc["events"] += _acts(game, jurisdiction, table, shoe, doc["events"], actions, bets, unknown)
    except TapeteError as exc:
        if "_tapete_table" in phh or exc.code == UNREPRESENTABLE:
            raise
        raise _refuse(exc.message) from exc      # a Spanish rule the file's play breaks, cited in the message
    return doc


def _whole_numbers(phh: dict[str, Any]) -> None:
    """Tapete counts whole cents; a PHH amount with decimals (1.5 chips) would have to be rounded."""
    for key in NUMERIC:
        value = phh.get(key)
        for v in value if isinstance(value, list) else [value]:
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise _refuse(f"{key} holds {v!r}, not a whole number of chips")
    for action in phh.get("actions", []):
        words = action.split("#")[0].split()
        if words[1:2] == ["cbr"] and not (len(words) > 2 and words[2].isdigit()):
            raise _refuse(f"the action {action!r} does not bet a whole number of chips")


def _foreign_table(phh: dict[str, Any], structure: str | None, n: int) -> tuple[dict[str, Any], list[int]]:
    """The table of a file tapete did not write, and each PHH position's forced bet — only where a Spanish table
    posts exactly those: antes alone, all equal (003:4433-4438), or blinds alone, m/2 by the mano and m by the next
    player (003:4440-4445), m being the minimum bet."""
    blinds = phh.get("blinds_or_straddles") or [0] * n
    antes = phh.get("antes") or [0] * n
    if isinstance(antes, int):
        antes = [antes] * n
    if len(blinds) != n or len(antes) != n:
        raise TapeteError("bad-document", f"PHH antes and blinds_or_straddles need one entry per player ({n})")
    if any(a.split("#")[0].split()[1:2] == ["pb"] for a in phh.get("actions", [])):
        raise _refuse("a bring-in is posted (pb); the Spanish stud table opens with a bet of the minimum", "003:5010-5014")
    if any(blinds) and any(antes):
        raise _refuse(f"blinds {blinds[:2]} and antes together; a Spanish table posts one or the other",
                      "003:4429-4447")
    if any(blinds):
        small, big = blinds[0], blinds[1] if n > 1 else 0
        if any(blinds[2:]) or big <= 0 or small != big // 2:
            raise _refuse(f"blinds {blinds}; a Spanish table posts m/2 and m, m the minimum bet, and no straddle",
                          "003:4440-4445")
        m = big
        given = phh.get("small_bet") if structure == "fixed" else phh.get("min_bet")
        if given not in (None, m):
            raise _refuse(f"a minimum bet of {given} with a big blind of {m}; the big blind is the minimum bet",
                          "003:4440-4445")
        if structure == "fixed" and phh.get("big_bet") not in (None, 2 * m):
            raise _refuse(f"a big bet of {phh.get('big_bet')}; the second limit doubles the first", "003:4388-4390")
        table = {"minimum": m, "structure": structure, "rake": 0, "forced": "blinds"}
        if n == 2 and _bets_after_board(phh.get("actions", [])):
            raise _refuse("heads-up, PHH's big blind speaks first after the flop; at a Spanish table the mano, who "
                          "posts the small blind, speaks first in every round", "003:5258-5262")
        # PHH positions; heads-up p1 posts the big blind (PokerKit's convention, phh_order)
        return table, [blinds[1 - k] for k in range(2)] if n == 2 else list(blinds)
    if len(set(antes)) != 1 or antes[0] <= 0:
        raise _refuse(f"antes {antes}; every player antes the same amount", "003:4433-4438")
    m = phh.get("small_bet") if structure == "fixed" else phh.get("min_bet")
    if m is None or m <= 0:
        raise TapeteError("bad-document", "a PHH hand without blinds needs its min_bet (or small_bet)")
    if structure == "fixed" and phh.get("big_bet") not in (None, 2 * m):
        raise _refuse(f"a big bet of {phh.get('big_bet')}; the second limit doubles the first", "003:4388-4390")
    return {"minimum": m, "structure": structure, "rake": 0, "forced": "ante", "ante": antes[0]}, list(antes)


def _bets_after_board(actions: list[str]) -> bool:
    words = [a.split("#")[0].split() for a in actions]
    board = next((k for k, w in enumerate(words) if w[:2] == ["d", "db"]), len(words))
    return any(w[:1] != ["d"] and w[1:2] in (["cc"], ["cbr"], ["f"]) for w in words[board:])


def _button(game_id: str, seats: list[int]) -> int:
    """The marca that makes seats[0] the mano: the seat before it in play order (sintético: itself)."""
    if game_id == "poker-sintetico":
        return seats[0]
    return seats[-1]


def _forced(table: dict[str, Any], n: int) -> list[int]:
    if table.get("forced") == "blinds":
        return [table["minimum"] // 2, table["minimum"]] + [0] * (n - 2)
    return [table.get("ante", table["minimum"] // 2)] * n


def _shoe(game_id: str, table: dict[str, Any], actions: list[list[str]], rows: list[bool],
          n: int) -> tuple[list[str], set[int]]:
    """The stacked shoe, and the players whose hole cards the file does not know. Unknown hole cards (`??`) are
    taken from the player's show when he shows them, else from cards nobody holds: they decide nothing unless he
    reaches the showdown, which `_acts` refuses."""
    holes: list[list[str]] = [[] for _ in range(n)]
    board: list[str] = []
    board2: list[str] = []
    replacements: list[str] = []
    shown: dict[int, list[str]] = {}
    drawn = False
    for words, row2 in zip(actions, rows, strict=True):
        if words[:2] == ["d", "dh"]:
            cards = _cards(words[3])
            if drawn:
                replacements += cards
            else:
                holes[int(words[2][1:]) - 1] += cards
        elif words[:2] == ["d", "db"]:
            (board2 if row2 else board).extend(_cards(words[2]))
        elif len(words) >= 2 and words[1] == "sd":
            drawn = True
        elif len(words) >= 3 and words[1] == "sm" and "??" not in words[2] and words[2] != "-":
            shown[int(words[0][1:]) - 1] = _cards(words[2])
    for k, h in enumerate(holes):
        if "??" in h and len(shown.get(k, ())) == len(h):
            holes[k] = shown[k]
    unknown = {k for k, h in enumerate(holes) if "??" in h}
    if unknown or "??" in replacements:
        size = table.get("deck") or (28 if game_id == "poker-sintetico" else 52)
        used = {c for h in holes for c in h} | set(board) | set(board2) | set(replacements)
        spare = iter([c for c in _deck(size) if c not in used])
        holes = [[next(spare) if c == "??" else c for c in h] for h in holes]
        replacements = [next(spare) if c == "??" else c for c in replacements]
    return stacked_shoe(game_id, holes, board, board2, replacements=replacements, deck=table.get("deck"),
                        early_card=table.get("early-card", False)), unknown


def _deck(size: int) -> list[str]:
    low = {52: 0, 32: 5, 28: 6}[size]
    return [r + s for r in FRENCH_RANKS[low:] for s in "CDHS"]


def _acts(game: CircleGame, jurisdiction: str, table: dict[str, Any], shoe: list[str], events: list[dict[str, Any]],
          actions: list[list[str]], bets: list[str], unknown: set[int]) -> list[dict[str, Any]]:
    """Replay the PHH actions through the reducer to tell a check from a call and a bet from a raise. Shows are
    kept for the showdown, in our order (003:4615-4622): PokerKit writes an all-in hand's shows before the
    remaining board is dealt, and in its own order."""
    state = game.open(jurisdiction, table, shoe)
    for e in events:
        body = e.get("bet")
        state = game.step(state, Bet(body["id"], body["player"], "hand", body["amount"]) if body else Deal())
    out: list[dict[str, Any]] = []
    shows: dict[str, bool] = {}
    for words in actions:
        if len(words) < 2 or words[0] == "d":
            continue
        bet = bets[int(words[0][1:]) - 1]
        verb = words[1]
        if verb == "sm":
            shows.setdefault(bet, len(words) > 2)
            continue
        act: dict[str, Any] = {"bet": bet}
        if verb == "f":
            act["do"] = "fold"
        elif verb == "cc":
            legal = {a.verb for a in game.legal_actions(state)}
            act["do"] = "check" if "check" in legal else "call"
        elif verb == "cbr":
            hand = state.hand
            act["do"] = "bet" if hand is not None and hand.betting.highest == 0 else "raise"
            act["amount"] = int(words[2])
        elif verb == "sd":
            act["do"] = "draw"
            act["cards"] = _cards(words[2]) if len(words) > 2 else []
        else:
            raise TapeteError("bad-document", f"PHH action {' '.join(words)!r} has no circle-poker meaning here")
        state = _step(game, state, act, out)
    while state.hand is not None and state.hand.phase == "show":
        legal = game.legal_actions(state)
        bet = legal[0].bet
        verbs = {a.verb for a in legal}
        do = "show" if shows.get(bet, True) or "muck" not in verbs else "muck"
        if do == "show" and bets.index(bet) in unknown:
            raise _refuse(f"{bet}'s hole cards are unknown (??) and he shows them at the showdown")
        state = _step(game, state, {"bet": bet, "do": do}, out)
    return out


def _step(game: CircleGame, state: CircleState, act: dict[str, Any], out: list[dict[str, Any]]) -> CircleState:
    fields = {k: v for k, v in act.items() if k not in ("bet", "do")}
    out.append({"act": act})
    return game.step(state, Act(act["do"], bet=act["bet"], fields=fields))
