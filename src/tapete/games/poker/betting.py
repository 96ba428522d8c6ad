"""Circle-poker betting: table stakes, forced bets, the three limit structures, all-ins, side pots and the house's take.

Andalucía's *póquer en círculo* (003:4149-4823) fixes the betting of every circle variant; this module is that
part, independent of cards: the variants (`circle.py`) deal, choose who acts first in each round and rank the
hands, and call these functions for everything that moves chips. Why our own engine and not PokerKit:
docs/decisions.md, "Circle poker: PokerKit or our own betting engine".

Money is integer cents. The house's take is computed per pot and rounded down to the cent (docs/format.md: circle
games round house deductions down), so every share is whole cents and the chips are conserved exactly.

Play order: `Betting.seats` lists the players of the hand in the order the cards are dealt, from the *mano*
(clockwise, or counter-clockwise in sintético). "Next" always means the next seat in that list, cyclically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from tapete.core.errors import TapeteError

STRUCTURES = ("fixed", "pot-limit", "no-limit")
LIVE = ("in", "allin")          # still holding cards and able to win a pot

SRC_ACTIONS = "003:4504-4533"
SRC_FIXED = "003:4384-4393"
SRC_PL = "003:4395-4402"
SRC_NL = "003:4404-4407"
SRC_DOUBLE = "003:4416-4419; 003:4529-4531"
SRC_SHORT_ALLIN = "003:4419-4423; R: docs/rulings.md#circle-short-allin"
SRC_STAKES = "003:4228-4233; 003:4541-4545; 003:4576-4578"
SRC_HEADS_UP = "003:4386-4388; 003:4538-4539"
SRC_MINBET = "003:4369-4373; 003:4404-4407; R: docs/rulings.md#circle-minimum-bet"


@dataclass
class Seat:
    """One player in the hand: what he has behind and what he has put in."""

    player: str
    seat: int
    bet: str                      # the id of his `hand` bet
    stack: int                    # chips behind (table stakes: only these can be bet, 003:4228-4233)
    total: int = 0                # everything he put into the pot this hand (forced bets included)
    street: int = 0               # his bets in the current betting round (antes excluded)
    state: str = "in"             # in | allin | folded | dead (void hand, chips forfeited) | refunded
    acted: bool = False           # acted since the last full bet or raise of the round
    raises: int = 0               # raises in this round (stud's per-player cap, 003:4995-4998)
    dropped: bool = False         # stud: folded with no bet pending, still dealt cards (003:5038-5041)


@dataclass
class Betting:
    """The betting state of one hand. Plain data: it round-trips with the game state."""

    structure: str
    minimum: int                  # m: the table minimum and the fixed-limit small unit (003:4388-4390)
    chip: int = 1
    raise_rule: str = "double"    # "double" (003:4416-4419) or "any" (ES-IB sintético: any larger amount, 000:1533)
    raise_cap: str = "round"      # fixed limit: "round" (3 raises per round, 003:4384-4386) or "player" (stud)
    cap: int = 3
    seats: list[Seat] = field(default_factory=list)
    round: int = 0
    unit: int = 0                 # fixed limit: this round's bet and raise size
    high_unit: int = 0            # stud: the optional high limit of round 2 after an open pair (0 = none)
    highest: int = 0              # highest street total in this round
    raises: int = 0               # full raises in this round (the opening bet is not one)
    to_act: int | None = None
    last_envite: int | None = None        # seat index of the last bet or raise of the hand (003:4655-4657)
    round_high: int | None = None         # who made the highest bet of this round (sintético, 003:5612-5621)
    round_first: int | None = None        # who acted first in this round (R-SHOWORDER)
    actions: int = 0              # betting decisions since the deal (R-2ACTIONS)
    forced_only: bool = False     # the player to act must bet (stud bring-in, 003:5009-5015)
    no_fold: bool = False         # the player to act may not fold (seven stud rounds 2-5, 003:5029-5031)
    no_raise: bool = False        # the player to act may only call or fold (his out-of-turn bet stands, 000:1589)

    # -- who is where --------------------------------------------------------------------------------
    def index(self, bet_id: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.bet == bet_id), None)

    def live(self) -> list[int]:
        """Players still holding cards (able to win)."""
        return [i for i, s in enumerate(self.seats) if s.state in LIVE]

    def can_act(self) -> list[int]:
        """Players who can still put chips in: in the hand and not all-in."""
        return [i for i, s in enumerate(self.seats) if s.state == "in"]

    def next_from(self, start: int, *, include: bool = True, states: tuple[str, ...] = ("in",)) -> int | None:
        """The first seat from `start` (itself included or not) in play order whose state is in `states`."""
        n = len(self.seats)
        for k in range(0 if include else 1, n + (1 if not include else 0)):
            i = (start + k) % n
            if self.seats[i].state in states:
                return i
        return None

    def pot(self) -> int:
        """Every chip in the middle, this round's bets included (the pot-limit 'pot', 003:4395-4402)."""
        return sum(s.total for s in self.seats)


# ---------------------------------------------------------------------------------------------------- forced bets


def post(b: Betting, i: int, amount: int, *, live: bool) -> int:
    """Post a forced bet (ante: dead, `live=False`; blind or bring-in: counts in the round). A short stack posts
    what it has and is all-in (003:4576-4578). Returns what was posted."""
    s = b.seats[i]
    paid = min(amount, s.stack)
    s.stack -= paid
    s.total += paid
    if live:
        s.street += paid
        b.highest = max(b.highest, s.street)
    if s.stack == 0 and s.state == "in":
        s.state = "allin"
    return paid


# ---------------------------------------------------------------------------------------------------- rounds


def start_round(b: Betting, first: int | None, *, unit: int = 0, keep_street: bool = False) -> None:
    """Open betting round `b.round + 1`: everyone's street bets back to zero (unless the blinds are on it), the
    first actor `first` (or, if he cannot act, the next who can)."""
    b.round += 1
    b.unit = unit
    b.high_unit = 0
    b.raises = 0
    b.round_high = None
    b.forced_only = False
    b.no_fold = False
    b.no_raise = False
    if not keep_street:
        b.highest = 0
        for s in b.seats:
            s.street = 0
    for s in b.seats:
        s.acted = False
        s.raises = 0
    b.to_act = None if first is None else b.next_from(first)
    b.round_first = b.to_act
    if b.to_act is not None and round_over(b):
        b.to_act = None


def round_over(b: Betting) -> bool:
    """The round is closed when every player who can act has acted and matched the highest bet, or nobody
    else is left to bet against (003:4541-4545)."""
    if len(b.live()) <= 1:
        return True
    pending = [i for i in b.can_act() if not b.seats[i].acted or b.seats[i].street < b.highest]
    if not pending:
        return True
    if len(b.can_act()) == 1:   # a lone player with chips and nothing to call has nobody to bet against
        i = b.can_act()[0]
        return b.seats[i].street >= b.highest
    return False


def advance(b: Betting) -> None:
    """Pass the turn to the next player who still has something to decide."""
    if round_over(b):
        b.to_act = None
        return
    assert b.to_act is not None
    n = len(b.seats)
    for k in range(1, n + 1):
        i = (b.to_act + k) % n
        s = b.seats[i]
        if s.state == "in" and (not s.acted or s.street < b.highest):
            b.to_act = i
            return
    b.to_act = None


# ---------------------------------------------------------------------------------------------------- sizes


@dataclass(frozen=True)
class Options:
    """What the player to act may do; amounts are street totals ("raise to")."""

    seat: int
    check: bool
    call: int                     # chips a call puts in (0: nothing to call)
    fold: bool
    bet: tuple[int, int] | None   # (min, max) street total of an opening bet
    raise_to: tuple[int, int] | None
    allin: int                    # his street total all-in
    sizes: tuple[int, ...] = ()   # fixed limit: the legal totals


def heads_up(b: Betting) -> bool:
    """Two players left holding cards: no cap on raises in fixed limit (003:4386-4388, 4538-4539)."""
    return len(b.live()) == 2


def min_raise_to(b: Betting) -> int:
    """NL and PL: at least double the highest bet (003:4416-4419, 4529-4531); ES-IB sintético: any more chips."""
    if b.raise_rule == "any":
        return b.highest + b.chip
    return 2 * b.highest


def options(b: Betting) -> Options | None:
    if b.to_act is None:
        return None
    i = b.to_act
    s = b.seats[i]
    allin = s.street + s.stack
    to_call = max(0, min(b.highest - s.street, s.stack))
    check = b.highest == s.street and not b.forced_only
    fold = not b.forced_only and not b.no_fold
    may_raise = not s.acted and not b.no_raise and s.stack > to_call
    bet = raise_to = None
    sizes: tuple[int, ...] = ()
    if b.structure == "fixed":
        if may_raise and not _capped(b, s):
            units = (b.unit, b.high_unit) if b.high_unit else (b.unit,)
            totals = tuple(sorted({b.highest + u for u in units}))
            totals = tuple(min(t, allin) for t in totals)
            sizes = tuple(sorted(set(totals)))
            if b.highest == 0:
                bet = (sizes[0], sizes[-1])
            else:
                raise_to = (sizes[0], sizes[-1])
    elif may_raise:
        if b.highest == 0:
            top = allin if b.structure == "no-limit" else min(allin, s.street + b.pot())
            bet = (min(b.minimum, allin), max(top, min(b.minimum, allin)))
        else:
            low = min(min_raise_to(b), allin)
            top = allin if b.structure == "no-limit" else min(allin, b.highest + b.pot() + (b.highest - s.street))
            raise_to = (low, max(low, top))
    return Options(i, check, to_call if b.highest > s.street else 0, fold, bet, raise_to, allin, sizes)


def _capped(b: Betting, s: Seat) -> bool:
    """Fixed limit: three raises per round (003:4384-4386), or per player in stud (003:4995-4998, R-STUD-CAP);
    no cap heads-up."""
    if heads_up(b) or b.highest == 0:
        return False
    if b.raise_cap == "player":
        return s.raises >= b.cap
    if b.raise_cap == "none":
        return False
    return b.raises >= b.cap


# ---------------------------------------------------------------------------------------------------- acting


def act(b: Betting, verb: str, amount: int | None = None, *, bet_id: str | None = None) -> str:
    """Apply the decision of the player to act; returns a croupier's line. Anything the rules refuse raises."""
    opts = options(b)
    if opts is None:
        raise TapeteError("illegal-action", "no betting decision is due", bet=bet_id)
    i = opts.seat
    s = b.seats[i]
    who = s.player
    if verb == "check":
        if not opts.check:
            why = "the bring-in must bet" if b.forced_only else f"there is a bet of {b.highest} to call"
            raise TapeteError("illegal-action", f"{who} may not check: {why}", source=SRC_ACTIONS, bet=s.bet)
        s.acted = True
        line = f"{who} checks"
    elif verb == "fold":
        if not opts.fold:
            why = "the bring-in may neither check nor fold" if b.forced_only else "the first to act may not fold"
            raise TapeteError("illegal-action", f"{who} may not fold: {why}", source="003:5009-5015; 003:5029-5031",
                              bet=s.bet)
        s.state = "folded"
        s.acted = True
        line = f"{who} folds (el señor no va)"
    elif verb == "call":
        if opts.call == 0:
            raise TapeteError("illegal-action", f"{who} has nothing to call", source=SRC_ACTIONS, bet=s.bet)
        _put(b, s, opts.call)
        s.acted = True
        line = f"{who} calls {opts.call}" + (" all-in" if s.state == "allin" else "")
    elif verb in ("bet", "raise"):
        line = _bet_or_raise(b, opts, verb, amount)
    else:
        raise TapeteError("illegal-action", f"{verb!r} is not a betting decision", bet=s.bet)
    b.actions += 1
    b.forced_only = False
    b.no_fold = False
    b.no_raise = False
    advance(b)
    return line


def commit(b: Betting, i: int, street_total: int) -> None:
    """Chips that stand without being a decision (a bring-in posted for an absent player, an out-of-turn bet
    that binds): put them in up to `street_total` for the round."""
    s = b.seats[i]
    _put(b, s, max(0, min(street_total, s.street + s.stack) - s.street))


def _put(b: Betting, s: Seat, chips: int) -> None:
    if chips > s.stack:
        raise TapeteError("illegal-action", f"{s.player} has only {s.stack} behind (table stakes)", source=SRC_STAKES,
                          bet=s.bet)
    s.stack -= chips
    s.street += chips
    s.total += chips
    b.highest = max(b.highest, s.street)
    if s.stack == 0:
        s.state = "allin"


def _bet_or_raise(b: Betting, opts: Options, verb: str, amount: int | None) -> str:
    s = b.seats[opts.seat]
    span = opts.bet if verb == "bet" else opts.raise_to
    if verb == "bet" and b.highest > 0:
        raise TapeteError("illegal-action", f"{s.player} cannot open: there is already a bet of {b.highest}; "
                          "raise or call", source=SRC_ACTIONS, bet=s.bet)
    if verb == "raise" and b.highest == 0:
        raise TapeteError("illegal-action", f"{s.player} cannot raise: nobody has bet in this round; bet",
                          source=SRC_ACTIONS, bet=s.bet)
    if span is None:
        why = ("the betting is not reopened for him by a short all-in" if s.acted else
               "the raises of this round are capped" if b.structure == "fixed" else "he has nothing left to raise")
        raise TapeteError("illegal-action", f"{s.player} may not {verb}: {why}",
                          source=SRC_SHORT_ALLIN if s.acted else SRC_FIXED, bet=s.bet)
    if amount is None:
        if b.structure != "fixed" or len(opts.sizes) != 1:
            raise TapeteError("bad-document", f"{verb} needs an 'amount' (the player's total for the round)", bet=s.bet)
        amount = opts.sizes[0]
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise TapeteError("bad-document", f"{verb} amount must be a positive integer (cents)", bet=s.bet)
    if amount > opts.allin:
        raise TapeteError("illegal-action", f"{s.player} bets {amount} but has only {opts.allin} with his stack "
                          "(table stakes)", source=SRC_STAKES, bet=s.bet)
    allin = amount == opts.allin
    if b.structure == "fixed":
        if amount not in opts.sizes and not allin:
            raise TapeteError("illegal-action", f"fixed limit: {s.player}'s {verb} must make the total "
                              f"{' or '.join(map(str, opts.sizes))}, not {amount}", source=SRC_FIXED, bet=s.bet)
    else:
        low, high = span
        if amount < low and not allin:
            rule = "the minimum bet" if verb == "bet" else "double the highest bet" if b.raise_rule == "double" else "more"
            raise TapeteError("illegal-action", f"{s.player}'s {verb} to {amount} is under the minimum {low} "
                              f"({rule})", source=SRC_MINBET if verb == "bet" else SRC_DOUBLE, bet=s.bet)
        if amount > high:
            raise TapeteError("illegal-action", f"pot limit: {s.player} may {verb} at most to {high}", source=SRC_PL,
                              bet=s.bet)
    previous = b.highest
    full = _is_full(b, verb, amount, opts)
    _put(b, s, amount - s.street)
    s.acted = True
    if amount > previous:
        b.round_high = opts.seat
        b.last_envite = opts.seat
    if full:
        if verb == "raise":
            b.raises += 1
            s.raises += 1
        for k, other in enumerate(b.seats):
            if k != opts.seat:
                other.acted = False
        if b.structure == "fixed" and b.high_unit and amount - previous == b.high_unit:
            b.unit = b.high_unit         # 003:4991-4995: once used, the whole round plays at the high limit
            b.high_unit = 0
    tail = " all-in" if s.state == "allin" else ""
    short = "" if full else " (short all-in: the betting is not reopened)"
    return f"{s.player} {'bets' if verb == 'bet' else 'raises to'} {amount}{tail}{short}"


def _is_full(b: Betting, verb: str, amount: int, opts: Options) -> bool:
    """A bet or raise of at least the minimum reopens the betting; a short all-in does not (003:4419-4423)."""
    if b.structure == "fixed":
        return amount in opts.sizes and amount - b.highest >= b.unit
    if verb == "bet":
        return amount >= b.minimum
    return amount >= min_raise_to(b)


# ---------------------------------------------------------------------------------------------------- pots


@dataclass
class Pot:
    amount: int
    eligible: list[int]           # seat indices that can win it


def uncalled(b: Betting) -> dict[int, int]:
    """R-UNCALLED: the part of the largest contribution that nobody matched goes back to its owner before the
    house's take (the percentage is on bets that are crossed, 003:82-89). Returns {seat index: chips}."""
    counted = [(s.total, i) for i, s in enumerate(b.seats) if s.state != "refunded"]
    if len(counted) < 2:
        return {counted[0][1]: counted[0][0]} if counted and len(b.live()) == 0 else {}
    counted.sort(reverse=True)
    (top, who), (second, _) = counted[0], counted[1]
    if top > second and b.seats[who].state in LIVE:
        return {who: top - second}
    return {}


def build_pots(b: Betting, refund: dict[int, int]) -> list[Pot]:
    """R-SIDEPOTS: one pot per all-in level, each taking from every player min(c, L_k) - min(c, L_{k-1});
    chips of folded players above the top level stay in the top pot. Refunded hands are out altogether."""
    contrib = {i: s.total - refund.get(i, 0) for i, s in enumerate(b.seats) if s.state != "refunded"}
    live = [i for i in b.live() if b.seats[i].state != "refunded"]
    if not live:
        return []
    levels = sorted({contrib[i] for i in live if b.seats[i].state == "allin"}
                    | {max(contrib[i] for i in live)})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in contrib.values())
        eligible = [i for i in live if contrib[i] >= level]
        if amount > 0 or not pots:
            pots.append(Pot(amount, eligible))
        below = level
    extra = sum(max(0, c - below) for c in contrib.values())
    if extra:
        pots[-1].amount += extra
    return pots


def rake_of(amount: int, rate: Decimal | Fraction) -> int:
    """Option (a): up to 5 % of each hand's money, deducted before paying (003:4082-4088); exact, then rounded
    down to the cent (docs/format.md: circle games round house deductions down)."""
    exact = Fraction(rate) * amount / 100
    return exact.numerator // exact.denominator


def odd_chip_order(b: Betting, winners: list[int]) -> list[int]:
    """R-ODDCHIP: the first odd chip to the winner who made the last *envite* of the hand (003:4655-4657), the rest
    one each to the other winners in play order after him; with no such winner, from the first after the mano."""
    n = len(b.seats)
    start = b.last_envite if b.last_envite in winners else 0
    assert start is not None
    return [i for k in range(n) if (i := (start + k) % n) in winners]


def split(b: Betting, amount: int, winners: list[int]) -> dict[int, int]:
    """Share `amount` equally among tied winners in whole chips (R-SPLIT); leftover chips one each in
    `odd_chip_order` (003:4651-4659: nobody gets more than one)."""
    if not winners:
        return {}
    k = len(winners)
    share = amount // (k * b.chip) * b.chip
    out = {i: share for i in winners}
    left = amount - share * k
    for i in odd_chip_order(b, winners):
        if left <= 0:
            break
        give = min(b.chip, left)
        out[i] += give
        left -= give
    return out


def halve(b: Betting, amount: int, first: list[int], second: list[int]) -> tuple[int, int]:
    """R-HALF: two equal halves (high/low, row 1/row 2); an odd chip goes to the half won by the player who made
    the last *envite* (003:4655-4657), otherwise to the first half."""
    half = amount // (2 * b.chip) * b.chip
    left = amount - 2 * half
    if left and b.last_envite in second and b.last_envite not in first:
        return half, half + left
    return half + left, half


def session_fee(option: str, *, rate: Decimal | Fraction | int | None = None, basis: int | None = None,
                amount: int | None = None) -> Fraction:
    """The house's take per player and session, options (b) and (c) of 003:4090-4101: (b) 10-20 % of the table
    maximum or of the *resto inicial*; (c) a fixed amount. The table server charges it, not a round document
    (docs/vocabulary.md §14-4)."""
    if option == "b":
        if rate is None or basis is None or not 10 <= Fraction(rate) <= 20:
            raise TapeteError("bad-table", "option (b) is 10 % to 20 % of the table maximum or the resto inicial",
                              source="003:4090-4092")
        return Fraction(rate) * basis / 100
    if option == "c":
        if amount is None or amount < 0:
            raise TapeteError("bad-table", "option (c) is a fixed amount per player and session", source="003:4099-4101")
        return Fraction(amount)
    raise TapeteError("bad-table", "the session fees are options b and c", source="003:4077-4101")
