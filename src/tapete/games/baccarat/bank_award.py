"""Chemin de fer: to whom a free bank goes, in what order, and for how much (R: docs/rulings.md#chemin-bank-award).

The same articles in every catalog (ES 001:753-769; ES-IB 000:863-875; ES-GA 002:544-558; ES-AN 003:1998-2056).
When the banker loses or gives up the bank it is offered to the seated player at his right and rotates seat by seat
while players decline (001:753); a taker of a bank given up voluntarily puts up at least its amount (001:753). If no
seated player takes it, it is offered to those standing; then the player who gave it up may take it back for the
same amount (001:755). Only a bank not taken in that rotating turn is auctioned, to the highest bidder, seated players
first on equal bids, without the banker (001:757-759) and, after a mano pasada, without the passer and his associates
(001:767). If nobody acquires it, the seat at the passer's right must take it for the table minimum (001:769).

A document records the takers and the bidders, not every refusal: each `bank` bet made while no bank is awarded is an
offer (an acceptance when the player is asked, or with `auction: true` a bid at the auction), and `award` decides among
them in the catalog's order; every player asked before the taker is taken to have declined.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tapete.core.money import euros


@dataclass
class Offer:
    """A `bank` bet made while no bank is awarded. An offer that does not win is void, its amount returned."""

    id: str
    player: str
    amount: int
    seat: int | None
    behind: int | None
    order: int
    final: str = "open"               # open | void
    auction: bool = False             # a bid at the auction, made once the rotating turn found no taker


@dataclass(frozen=True)
class Giver:
    """The banker whose bank is free: who he is, where he sits, the amount he may take it back for (001:755),
    and whether he gave it up voluntarily (a mano pasada) or lost it."""

    player: str
    seat: int | None
    amount: int
    voluntary: bool


@dataclass(frozen=True)
class Turn:
    """What the award of one free bank needs to know about the table."""

    first: int                        # the department asked first (001:749; 001:753; 001:761)
    departments: int
    floor: int                        # the least a taker in the rotating turn puts up (001:753)
    minimum: int                      # the table minimum: the least bid at the auction, the last resort (001:769)
    giver: Giver | None = None
    barred: frozenset[str] = frozenset()      # may not bid at the auction (001:757; 001:767)
    auction_only: bool = False        # a banker refused to deal: the bank goes straight to auction (001:773)
    last_resort: int | None = None    # after a mano pasada, the seat at the passer's right (001:769)


@dataclass
class Award:
    """The winning offer, how it won (a log line) and why each other offer is void."""

    winner: Offer
    how: str
    declined: list[str] = field(default_factory=list)       # log lines: who was asked and declined
    reasons: dict[str, str] = field(default_factory=dict)   # offer id -> why it is void


def rotation(turn: Turn) -> list[int]:
    """The seats asked in the rotating turn, from `first` in department order (001:753). The giver himself is not
    asked in it: he may take the bank back only after the standing players (001:755)."""
    return [(turn.first - 1 + k) % turn.departments + 1 for k in range(turn.departments)]


def _distance(turn: Turn, place: int | None) -> int:
    return ((place or 0) - turn.first) % max(turn.departments, 1)


def award(offers: list[Offer], turn: Turn, cite: Callable[[str], str]) -> Award | None:
    """Decide among the offers in the catalog's order; None when there is no offer. `cite` gives the document's own
    article for a national one."""
    if not offers:
        return None
    giver = turn.giver.player if turn.giver is not None else None
    takers = [o for o in offers if not o.auction and not turn.auction_only]
    found = None if turn.auction_only else (_seated(takers, turn, giver, cite) or _standing(takers, turn, giver, cite)
                                             or _buy_back(takers, turn, cite))
    if found is None:
        found = _auction(offers, turn, cite) or _last_resort(offers, turn, cite)
    if found is None:                 # every offer was checked when made: this cannot happen
        raise AssertionError("no offer can take the bank")
    winner, how, declined, lost = found
    result = Award(winner, how, declined)
    for o in offers:
        if o is not winner:
            result.reasons[o.id] = lost(o)
    return result


Found = tuple[Offer, str, list[str], Callable[[Offer], str]]


def _seated(takers: list[Offer], turn: Turn, giver: str | None, cite: Callable[[str], str]) -> Found | None:
    """The first seat in the rotation whose player takes the bank for at least the floor (001:753)."""
    by_seat: dict[int, Offer] = {}
    for o in takers:
        if o.seat is not None and o.player != giver and o.amount >= turn.floor:
            by_seat.setdefault(o.seat, o)
    seats = rotation(turn)
    for k, seat in enumerate(seats):
        if seat in by_seat:
            winner = by_seat[seat]
            asked = seats[:k]
            declined = ([f"the bank is offered seat by seat from department {turn.first}: "
                         f"{_list('department', asked)} decline{'s' if len(asked) == 1 else ''} ({cite('001:753')})"]
                        if asked else [])
            how = f"in the rotating turn, department {seat} ({cite('001:753')})"
            return winner, how, declined, lambda o, w=winner: _after_rotation(o, w, cite)
    return None


def _standing(takers: list[Offer], turn: Turn, giver: str | None, cite: Callable[[str], str]) -> Found | None:
    """No seated player took it: the standing players, in the order of the seats they stand behind (001:755)."""
    standing = sorted((o for o in takers if o.seat is None and o.player != giver and o.amount >= turn.floor),
                      key=lambda o: (_distance(turn, o.behind), o.order))
    if not standing:
        return None
    winner = standing[0]
    declined = [f"no seated player takes the bank: it is offered to the players standing ({cite('001:755')})"]
    return winner, f"standing, nobody seated taking it ({cite('001:755')})", declined, \
        lambda o: _after_rotation(o, winner, cite)


def _buy_back(takers: list[Offer], turn: Turn, cite: Callable[[str], str]) -> Found | None:
    """Nobody seated or standing took it: the player who gave it up may take it back for the same amount (001:755)."""
    if turn.giver is None:
        return None
    back = next((o for o in takers if o.player == turn.giver.player and o.amount >= turn.giver.amount), None)
    if back is None:
        return None
    declined = [f"nobody seated or standing takes the bank: {back.player}, who gave it up, may take it back for "
                f"{euros(turn.giver.amount)} ({cite('001:755')})"]
    return back, f"back, for the same amount ({cite('001:755')})", declined, lambda o: _after_rotation(o, back, cite)


def _auction(offers: list[Offer], turn: Turn, cite: Callable[[str], str]) -> Found | None:
    """Not taken in the rotating turn: the highest bid, seated players first on equal bids, then the rotation order,
    then the order of the document; neither the banker nor, after a mano pasada, his associates (001:757-759; 001:767)."""
    bids = [o for o in offers if (o.auction or turn.auction_only) and o.player not in turn.barred]
    if not bids:
        return None
    winner = min(bids, key=lambda o: (-o.amount, o.seat is None, _distance(turn, o.seat or o.behind), o.order))
    why = cite("001:773") if turn.auction_only else cite("001:757-759")
    declined = ([] if turn.auction_only else
                [f"the bank was not taken in the rotating turn: it is auctioned ({cite('001:757-759')})"])
    return winner, f"at auction, the highest bid ({why})", declined, lambda o: (
        f"the auction goes to the highest bidder, seated players first on equal bids ({cite('001:757-759')})")


def _last_resort(offers: list[Offer], turn: Turn, cite: Callable[[str], str]) -> Found | None:
    """Nobody acquired it: the seat at the right of the banker who passed the hand takes it for the table minimum,
    or gives up his seat (001:769)."""
    winner = next((o for o in offers if turn.last_resort is not None and o.seat == turn.last_resort), None)
    if winner is None:
        return None
    declined = [f"nobody acquires the bank: it goes to department {turn.last_resort}, at the right of the banker who "
                f"passed the hand, for the table minimum ({cite('001:769')})"]
    return winner, f"as the seat at the passer's right, for the table minimum ({cite('001:769')})", declined, \
        lambda o: f"the bank went to the seat at the passer's right ({cite('001:769')})"


def _after_rotation(o: Offer, winner: Offer, cite: Callable[[str], str]) -> str:
    if o.auction:
        return f"the bank was taken in the rotating turn: there is no auction ({cite('001:757')})"
    return f"the bank was taken in the rotating turn by {winner.player} ({cite('001:753; 001:755')})"


def _list(word: str, seats: list[int]) -> str:
    if len(seats) == 1:
        return f"{word} {seats[0]}"
    return f"{word}s {', '.join(map(str, seats[:-1]))} and {seats[-1]}"
