"""Who sees what: the one place that decides what each viewer may see of a table's records (docs/server.md
§ Who sees what). The REST views, the live stream, the round records and the pages all ask here.

A viewer's standing at a table (`Viewer.standing`):
- `inspector`: everything, at once (the log, every seed, every card a round dealt);
- `staff`: the croupier and the chief who work the table: every login and the cards they keyed, but a circle
  hand's seed only once it is public (as any player: a croupier is no more trusted with folded hands);
- `player`: a logged-in player: his own hands and bets, every card the table shows face up, others by display
  name; `visitor`: a session with no stake here (a cashier, the staff of another table): what a player sees
  of others; `anonymous`: no session (the lobby, the pages' shells): the same, and never a login.

The cards (items 3 of issue 26): a card reaches a viewer when the table shows it to him, never before. The
state is masked by `state_view`/`doc_view` (a hole card for its holder, a face-up card for all, the shoe's
order for nobody); a stream record (`stream_record`) never carries the cards a live table's croupier keys
(they reach players through the view, masked), nor an act's cards (Pai Gow's arrangement) but to their
player, nor the narration of a game with hole cards before the coup is over; a round record (`round_record`)
is sealed at circle poker until the seed is public, and its coup is the view's. Names (item 7): other players
are named by structure (`NAME_VALUES`, `NAME_KEYED`, `NAME_LISTS`: the fields that name a player), never by
substituting text; a narration line that names another player is withheld from non-staff.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from tapete.catalog import get_game
from tapete.engine.serialize import to_json

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from tapete.engine.game import Game

Standing = Literal["inspector", "staff", "player", "visitor", "anonymous"]
STAFF_ROLES = ("croupier", "chief")


class Account(Protocol):
    """What a viewer is made from (the HTTP layer's `User`): tables import nothing from http."""

    username: str
    roles: frozenset[str]
    tables: tuple[str, ...] | None


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a login (None: no session), his roles, the tables a restricted staff member works."""

    login: str | None = None
    roles: frozenset[str] = frozenset()
    tables: tuple[str, ...] | None = None

    @classmethod
    def of(cls, account: Account | None) -> Viewer:
        if account is None:
            return ANONYMOUS
        return cls(account.username, frozenset(account.roles), account.tables)

    def works(self, table_id: str) -> bool:
        return self.tables is None or table_id in self.tables

    def standing(self, table_id: str) -> Standing:
        if self.login is None:
            return "anonymous"
        if "inspector" in self.roles and self.works(table_id):
            return "inspector"
        if self.roles & set(STAFF_ROLES) and self.works(table_id):
            return "staff"
        return "player" if "player" in self.roles else "visitor"

    def sees_logins(self, table_id: str) -> bool:
        """The table's staff and the inspector read logins; everyone else reads display names."""
        return self.standing(table_id) in ("inspector", "staff")

    def hands(self, table_id: str) -> str | None:
        """The login whose hands the view shows unmasked (a player's own; nobody's for staff and visitors:
        the croupier's view of a table with hole cards is a player's with no hand)."""
        return self.login if self.standing(table_id) == "player" else None


ANONYMOUS = Viewer()


@dataclass(frozen=True)
class TableFacts:
    """What the rules of sight need to know of a table's game."""

    id: str
    game: str
    hidden: bool            # hole cards: every card masked in the view but the viewer's own and the face-up ones
    circle: bool            # circle poker: a hand's seed (every card) is sealed until public
    player_banked: bool     # chemin de fer, dos paños: the coup's narration is public once the coup is over

    @classmethod
    def of(cls, table_id: str, game: Game) -> TableFacts:
        from tapete.server.tables import banker, circle

        return cls(table_id, game.id, game.id not in FACE_UP and game.uses_shoe, circle.table_stakes(game),
                   banker.banked(game))


# -- the state: what the table shows of the engine's state ----------------------------------------------------
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


# -- the stream, the round records, the errors -----------------------------------------------------------------
ACT_KEYS = ("do", "bet", "by")
SECRET_KEYS = frozenset({"seed", "cards", "log"})     # what a stream record may carry that not every watcher sees
DISPUTE_KINDS = ("dispute", "dispute-close")            # tables/disputes.py
DISPUTE_PRIVATE = frozenset({"player", "reason", "claim", "note"})   # who complained, why, for how much: the staff's


def mask_cards(doc: Any) -> Any:
    """Every card of `doc` as `MASK` (an act's arrangement of a hand, keyed cards)."""
    if isinstance(doc, list):
        return [mask_cards(x) for x in doc]
    if isinstance(doc, dict):
        return {k: mask_cards(v) for k, v in doc.items()}
    return MASK if isinstance(doc, str) and CARD.match(doc) else doc


def _act_for(event: Any, own: bool) -> Any:
    """An act's document: its cards (Pai Gow's `set`, a purchase) for its player only."""
    if own or not isinstance(event, dict) or not isinstance(event.get("act"), dict):
        return event
    act = event["act"]
    return {**event, "act": {k: v if k in ACT_KEYS else mask_cards(v) for k, v in act.items()}}


def stream_record(record: dict[str, Any], viewer: Viewer, table: TableFacts) -> dict[str, Any]:
    """A record of the table's log as `viewer` may receive it on the live stream (names aside: `Names`).

    The croupier's keyed cards (`cards` of a deal or an act) reach the table's staff and the inspector only:
    what was dealt face up reaches the players through the view (the same masking as `GET /view`), and cards
    keyed for later draws are undealt cards. A circle hand's seed reaches the inspector only (a shoe's end, a
    settlement). At a game with hole cards the engine's narration (which names the cards) is withheld but at a
    player-banked table's settlement, when every card of the coup lies face up (001:811)."""
    standing = viewer.standing(table.id)
    if standing == "inspector":
        return record
    data = record.get("data")
    if record.get("kind") in DISPUTE_KINDS and standing != "staff" and isinstance(data, dict):
        # a dispute reaches the table's watchers as a fact (its number, round and outcome), never its particulars
        return {**record, "data": {k: v for k, v in data.items() if k not in DISPUTE_PRIVATE}}
    if not isinstance(data, dict) or (record.get("kind") != "act" and not SECRET_KEYS & data.keys()):
        return record                   # most records (a bet, a phase): as they are, no copy per watcher
    out = dict(data)
    if table.circle:
        out.pop("seed", None)
    if standing != "staff":
        out.pop("cards", None)
        if record.get("kind") == "act" and "event" in out:
            out["event"] = _act_for(out["event"], own=viewer.login is not None and record.get("actor") == viewer.login)
        if table.hidden and "log" in out and not (table.player_banked and record.get("kind") == "settlement"):
            out["log"] = []
    return {**record, "data": out} if out != data else record


def stream_key(viewer: Viewer, table_id: str, named: frozenset[str]) -> str:
    """The views a stream record has: one per standing that sees differently, and one per player it names
    (his own login kept, his own act's cards shown). Watchers with the same key receive the same text."""
    standing = viewer.standing(table_id)
    if standing in ("inspector", "staff"):
        return standing
    return viewer.login if viewer.login is not None and viewer.login in named else ""


def round_record(conn: Connection, record: dict[str, Any], viewer: Viewer, spec: Any, game: Game,
                 settled_at: float | None) -> dict[str, Any]:
    """A round record as `viewer` may read it (names aside). The inspector: whole. Anyone else at circle poker:
    sealed (no seed, no dealt cards) until the seed is public (privacy.seed_public). At a game with hole cards,
    the coup as dealt is the view's (`doc_view`, over): the viewer's own hands and what the table turned up,
    and an act's cards are its player's."""
    from tapete.server.tables import privacy

    if viewer.standing(spec.id) == "inspector":
        return record
    table = TableFacts.of(spec.id, game)
    if table.circle and not privacy.seed_public(conn, spec, settled_at):
        until = "the end of the table's session" if spec.seed_delay is None else \
            f"{spec.seed_delay:g} s after the hand, or the end of the table's session"
        record = privacy.seal(record, until)
    if table.hidden and not viewer.sees_logins(spec.id):
        mine = viewer.hands(spec.id)
        if isinstance(record.get("coup"), dict):
            record = {**record, "coup": doc_view(record["coup"], mine, over=True)}
        owners = {b: e.get("player") for b, e in ((record.get("settlement") or {}).get("bets") or {}).items()
                  if isinstance(e, dict)}
        if isinstance(record.get("events"), list):
            record = {**record, "events": [_act_for(e, own=mine is not None and isinstance(e, dict)
                                                    and owners.get((e.get("act") or {}).get("bet")) == mine)
                                           for e in record["events"]]}
    return record


def state_for(viewer: Viewer, table_id: str, state: Any, over: bool) -> dict[str, Any] | None:
    """`state_view` for a viewer at this table."""
    return state_view(state, viewer.hands(table_id), over)


def coup_for(viewer: Viewer, table_id: str, record: dict[str, Any]) -> Any:
    """A settled coup of `GET /view`'s `recent`: the coup as dealt, as the viewer may see it."""
    return doc_view(record["coup"], viewer.hands(table_id), over=True) if record.get("coup") else record["view"]


# -- names: other players by display name, applied by structure ----------------------------------------------
NAME_VALUES = ("player", "holder", "banker", "user", "actor")   # a key whose string value is a login
NAME_KEYED = ("seats", "stacks", "parts", "garaged", "staked")  # a mapping keyed by login (where its key is one)
NAME_LISTS = ("players", "barred")                              # a list of logins, or a mapping to logins
NARRATION = ("log",)                                            # the engine's sentences: never rewritten


def named_players(doc: Any) -> list[str]:
    """The logins `doc` names, by structure."""
    out: list[str] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k in NAME_VALUES and isinstance(v, str):
                out.append(v)
            elif k in NAME_KEYED and isinstance(v, dict):
                out.extend(x for x in v if isinstance(x, str))
                out.extend(named_players(v))
            elif k in NAME_LISTS and isinstance(v, (list, dict)):
                out.extend(x for x in (v.values() if isinstance(v, dict) else v) if isinstance(x, str))
            else:
                out.extend(named_players(v))
    elif isinstance(doc, list):
        for x in doc:
            out.extend(named_players(x))
    return out


class Aliases(Protocol):
    """The display names of players (privacy.Aliases: the database's, cached)."""

    def names(self, logins: set[str], viewer: str | None, seats: dict[str, int] | None = None) -> dict[str, str]: ...


def by_display_name(doc: Any, login: str | None, aliases: Aliases, seats: dict[str, int] | None = None) -> Any:
    """`doc` for a viewer who reads other players by display name (`login`: his own, kept; `seats`: a circle
    table's seating, whose default names are "Seat N")."""
    logins = set(named_players(doc)) | set(seats or {})
    return rename(doc, aliases.names(logins, login, seats))


def rename(doc: Any, mapping: dict[str, str]) -> Any:
    """`doc` with each login of `mapping` replaced where a field names a player; every other string as it is (a
    player called "red" leaves the red bets red). A narration line naming one of them is withheld: it is text,
    and text is never rewritten."""
    if not mapping:
        return doc
    words = re.compile(r"(?<![\w.-])(" + "|".join(re.escape(n) for n in sorted(mapping, key=len, reverse=True))
                       + r")(?![\w-])")
    return _rename(doc, mapping, words)


def _rename(doc: Any, mapping: dict[str, str], words: re.Pattern[str]) -> Any:
    if isinstance(doc, list):
        return [_rename(x, mapping, words) for x in doc]
    if not isinstance(doc, dict):
        return doc
    out: dict[Any, Any] = {}
    for k, v in doc.items():
        if k in NAME_VALUES and isinstance(v, str):
            out[k] = mapping.get(v, v)
        elif k in NAME_KEYED and isinstance(v, dict):
            out[k] = {(mapping.get(x, x) if isinstance(x, str) else x): _rename(y, mapping, words) for x, y in v.items()}
        elif k in NAME_LISTS and isinstance(v, list):
            out[k] = [mapping.get(x, x) if isinstance(x, str) else x for x in v]
        elif k in NAME_LISTS and isinstance(v, dict):
            out[k] = {x: mapping.get(y, y) if isinstance(y, str) else y for x, y in v.items()}
        elif k in NARRATION and isinstance(v, list):
            out[k] = [line for line in v if not (isinstance(line, str) and words.search(line))]
        else:
            out[k] = _rename(v, mapping, words)
    return out
