"""The shoe every card game deals from: a document's `shoe` (exact order) or a live, CSPRNG-shuffled one.

docs/format.md: `shoe` lists the cards in the order they leave the shoe, without the burns made when the shoe
is opened; running out is `shoe-exhausted`. `table.cut-card` is the 0-based index in `shoe` of the first card
behind the cut (stop) card: the coup in which it is reached is completed, a further coup is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tapete.core.cards import Card, parse_shoe, shoe_of
from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng


@dataclass
class Shoe:
    """Cards in dealing order and how many have left. Plain data: it round-trips with the game state."""

    cards: list[str]
    position: int = 0
    cut_index: int | None = None      # index of the first card behind the cut card
    decks: int = 6
    face_up: list[int] = field(default_factory=list)   # indices found face up in the shoe: eliminated
    eliminated: list[str] = field(default_factory=list)

    @classmethod
    def from_document(cls, cards: Sequence[object], *, decks: int, deck: str = "french", jokers: int = 0,
                      cut_index: object = None) -> Shoe:
        parsed = parse_shoe(cards, decks=decks, deck=deck, jokers=jokers)
        if cut_index is not None and (not isinstance(cut_index, int) or isinstance(cut_index, bool) or cut_index < 0):
            raise TapeteError("bad-document", "table.cut-card is a 0-based index into shoe")
        return cls([c.text for c in parsed], 0, cut_index, decks)

    @classmethod
    def shuffled(cls, rng: TableRng, *, decks: int, deck: str = "french", jokers: int = 0,
                 cut_from_end: int | None = None, burn: int = 0) -> Shoe:
        """A fresh live shoe: Fisher-Yates with the table CSPRNG, the cut card `cut_from_end` cards from the end."""
        cards = [c.text for c in shoe_of(decks, deck, jokers)]
        rng.shuffle(cards)
        cut = len(cards) - cut_from_end if cut_from_end is not None else None
        return cls(cards, burn, cut, decks)

    @classmethod
    def prepared(cls, rng: TableRng, *, decks: int, reserve: tuple[int, int] | int, burn: int = 0,
                 deck: str = "french") -> Shoe:
        """A live shoe as the card-game texts prepare it: shuffled with the table CSPRNG, cut by a player
        (a rotation at a random point), the cut (or red) card placed with `reserve` cards behind it (an exact
        count, or a (least, most) range drawn uniformly), and `burn` cards set aside (000:404-406; 000:524-526)."""
        cards = [c.text for c in shoe_of(decks, deck)]
        rng.shuffle(cards)
        at = rng.randbelow(len(cards))
        cards = cards[at:] + cards[:at]
        low, high = (reserve, reserve) if isinstance(reserve, int) else reserve
        behind = low + rng.randbelow(high - low + 1)
        return cls(cards, burn, len(cards) - behind, decks)

    @property
    def at_cut(self) -> bool:
        """The next card is the first behind the cut card: the cut (red) card itself shows now."""
        return self.cut_index is not None and self.position == self.cut_index

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_reached(self) -> bool:
        """True once a card behind the cut card has been dealt: finish this coup, deal no other."""
        return self.cut_index is not None and self.position > self.cut_index

    def draw(self) -> Card:
        """The next card; a card found face up in the shoe is eliminated and the next one dealt (000:408)."""
        while self.position in self.face_up:
            self.eliminated.append(self.cards[self.position])
            self.position += 1
        if self.position >= len(self.cards):
            raise TapeteError("shoe-exhausted", f"the shoe ran out after {len(self.cards)} cards")
        card = Card(self.cards[self.position])
        self.position += 1
        return card

    def peek(self) -> Card | None:
        return Card(self.cards[self.position]) if self.position < len(self.cards) else None


def check_cut_card(shoe: Shoe, *, full: int, behind: int, exact: bool, what: str, source: str,
                   burned: int = 0) -> None:
    """The cut (stop, red) card where the text puts it: `behind` cards behind it, exactly or at least. Only a
    document that lists the whole shoe (less the `burned` cards set aside when it is opened) shows how many cards
    lie behind the card; a shorter `shoe` is not checked (R: docs/rulings.md#cut-card-placement)."""
    if shoe.cut_index is None or len(shoe.cards) < full - burned:
        return
    below = len(shoe.cards) - shoe.cut_index
    if below == behind or (not exact and below > behind):
        return
    want = f"{behind}" if exact else f"at least {behind}"
    raise TapeteError("bad-table", f"the {what} has {below} cards behind it: the text wants {want}", source=source)

