"""Cards in docs/format.md's notation: French 52 (`AS`, `TD`), jokers (`X1`), Spanish 40 (`12o`, `1e`).

A French card is also an int `rank * 4 + suit` (rank 0..12 for 2..A, suit 0..3 for S H D C), the
encoding the poker evaluator's lookup tables use; jokers are 52, 53, ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tapete.core.errors import TapeteError

FRENCH_RANKS = "23456789TJQKA"
FRENCH_SUITS = "SHDC"
SPANISH_NUMBERS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)   # 10 sota, 11 caballo, 12 rey
SPANISH_SUITS = "oceb"                                # oros, copas, espadas, bastos


@dataclass(frozen=True, order=True)
class Card:
    """One card; `text` is its docs/format.md notation and is all a document or the state needs."""

    text: str

    @property
    def is_joker(self) -> bool:
        return self.text.startswith("X")

    @property
    def is_spanish(self) -> bool:
        return self.text[-1] in SPANISH_SUITS

    @property
    def rank(self) -> str:
        """French rank character (`A`, `T`, `9`...)."""
        return self.text[0]

    @property
    def suit(self) -> str:
        return self.text[-1]

    @property
    def number(self) -> int:
        """Spanish card number (1..7, 10, 11, 12)."""
        return int(self.text[:-1])

    @property
    def index(self) -> int:
        """French 0..51 (rank*4 + suit); jokers 52 + n - 1."""
        if self.is_joker:
            return 51 + int(self.text[1:])
        return FRENCH_RANKS.index(self.text[0]) * 4 + FRENCH_SUITS.index(self.text[1])

    @property
    def point_value(self) -> int:
        """Face value as the baccarat and blackjack families count it before their own rules: A=1, T-K=10."""
        r = self.text[0]
        if r == "A":
            return 1
        if r in "TJQK":
            return 10
        return int(r)

    def __str__(self) -> str:
        return self.text


def parse_card(text: object, *, deck: str = "french", jokers: int = 0) -> Card:
    """Validate a card in the notation of `deck` ('french' or 'spanish'); `bad-card` otherwise."""
    if not isinstance(text, str):
        raise TapeteError("bad-card", f"a card must be a string, got {text!r}")
    if deck == "french":
        if len(text) == 2 and text[0] in FRENCH_RANKS and text[1] in FRENCH_SUITS:
            return Card(text)
        if jokers and text.startswith("X") and text[1:].isdigit() and 1 <= int(text[1:]) <= jokers:
            return Card(text)
        extra = f" or a joker X1..X{jokers}" if jokers else ""
        raise TapeteError("bad-card", f"{text!r} is not a French card (rank 23456789TJQKA + suit SHDC{extra})")
    if deck == "spanish":
        body, suit = text[:-1], text[-1:]
        if suit and suit in SPANISH_SUITS and body.isdigit() and int(body) in SPANISH_NUMBERS:
            return Card(text)
        raise TapeteError("bad-card", f"{text!r} is not a Spanish card (1-7, 10, 11, 12 + suit o c e b)")
    raise ValueError(f"unknown deck {deck!r}")


def french_deck(jokers: int = 0) -> list[Card]:
    return [Card(r + s) for r in FRENCH_RANKS for s in FRENCH_SUITS] + [Card(f"X{n}") for n in range(1, jokers + 1)]


def spanish_deck() -> list[Card]:
    return [Card(f"{n}{s}") for n in SPANISH_NUMBERS for s in SPANISH_SUITS]


def shoe_of(decks: int, deck: str = "french", jokers: int = 0) -> list[Card]:
    """`decks` full decks in a fixed order (shuffle with an Rng)."""
    one = french_deck(jokers) if deck == "french" else spanish_deck()
    return [c for _ in range(decks) for c in one]


def parse_shoe(cards: Sequence[object], *, decks: int, deck: str = "french", jokers: int = 0) -> list[Card]:
    """Parse a document's `shoe`, refusing a card that appears more often than the decks hold."""
    parsed = [parse_card(c, deck=deck, jokers=jokers) for c in cards]
    counts = Counter(parsed)
    for card, n in counts.items():
        if n > decks:
            raise TapeteError("bad-card", f"{card} appears {n} times, but the shoe holds {decks} deck(s)")
    return parsed


def card_texts(cards: Iterable[Card]) -> list[str]:
    return [c.text for c in cards]
