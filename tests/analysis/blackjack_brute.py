"""A naive, independent play of a whole Black Jack round under a fixed chart, in Fractions: the split hands drawn
and played in dealing order, each re-split hand appended, then the dealer draws his second card and on, every
card taken from the real composition. Only the chart arrays and the hand helpers of the rules code are shared
with the solver (tests/analysis/test_blackjack_exact.py)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from tapete.games.blackjack.hand import dealer_must_draw, dealer_total, is_soft, player_total

STAND, HIT, DOUBLE, SURRENDER = 0, 1, 2, 3


def done(hands: tuple[tuple[tuple[int, ...], int], ...], cur: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Hand `cur` is over: keep only its total (22 for a bust) and units, the finished hands sorted (the dealer
    sees them alike in any order), so that equal states meet in the memo."""
    cards, units = hands[cur]
    t = min(player_total(list(cards)), 22)
    head = tuple(sorted(hands[:cur] + (((t,), units),)))
    return head + hands[cur + 1:]


class Brute:
    def __init__(self, rules: Any, sol: Any, up: int) -> None:
        self.rules, self.sol, self.up = rules, sol, up
        self.cap = 4 if rules.resplit else 2
        self.dealer = lru_cache(maxsize=None)(self._dealer)
        self.play = lru_cache(maxsize=None)(self._play)

    def _dealer(self, counts: tuple[int, ...], cards: tuple[int, ...]) -> dict[Any, Fraction]:
        """The dealer's final (total, 'bj' or 'bust') law, holding `cards` (sorted: the order does not change what
        he does next) and drawing from `counts`."""
        if len(cards) == 2 and sorted(cards) == [1, 10]:
            return {"bj": Fraction(1)}
        if sum(cards) > 21:
            return {"bust": Fraction(1)}
        if len(cards) >= 2 and not dealer_must_draw(list(cards), self.rules.dealer_stands_soft_17):
            return {dealer_total(list(cards), self.rules.dealer_stands_soft_17): Fraction(1)}
        n = sum(counts)
        out: dict[Any, Fraction] = {}
        for r in range(1, 11):
            if counts[r]:
                nxt = list(counts)
                nxt[r] -= 1
                for k, p in self.dealer(tuple(nxt), tuple(sorted((*cards, r)))).items():
                    out[k] = out.get(k, Fraction(0)) + p * Fraction(counts[r], n)
        return out

    def settle(self, counts: tuple[int, ...], hands: tuple[tuple[tuple[int, ...], int], ...]) -> Fraction:
        """Every hand against the dealer's law from what is left (no hole card: his Black-Jack takes all)."""
        total = Fraction(0)
        for k, p in self.dealer(counts, (self.up,)).items():
            for cards, units in hands:
                t = player_total(list(cards))
                if t > 21 or k == "bj":
                    total -= p * units
                elif k == "bust" or t > k:
                    total += p * units
                elif t < k:
                    total -= p * units
        return total

    def draws(self, counts: tuple[int, ...]) -> list[tuple[Fraction, int, tuple[int, ...]]]:
        n = sum(counts)
        out = []
        for r in range(1, 11):
            if counts[r]:
                nxt = list(counts)
                nxt[r] -= 1
                out.append((Fraction(counts[r], n), r, tuple(nxt)))
        return out

    def _play(self, counts: tuple[int, ...], hands: tuple[tuple[tuple[int, ...], int], ...], cur: int,
              split: bool) -> Fraction:
        """Expected net of the box from here: hands[cur] is to act (hands after it wait their second card)."""
        if cur == len(hands):
            return self.settle(counts, hands)
        cards, units = hands[cur]
        sol, up = self.sol, self.up
        if len(cards) == 1:                                     # a split hand draws its second card
            x = cards[0]
            total = Fraction(0)
            for p, r, nxt in self.draws(counts):
                if r == x and len(hands) < self.cap and (x != 1 or sol.table.resplit_aces):
                    new = hands + (((x,), 1),)                  # a new hand, this one draws again
                    total += p * self.play(nxt, new, cur, split)
                else:
                    new = hands[:cur] + (((x, r), 1),) + hands[cur + 1:]
                    if x == 1 and self.rules.split_aces_one_card:
                        total += p * self.play(nxt, done(new, cur), cur + 1, split)
                    else:
                        total += p * self.play(nxt, new, cur, split)
            return total
        t = player_total(list(cards))
        soft = int(is_soft(list(cards)))
        if t >= 21:
            return self.play(counts, done(hands, cur), cur + 1, split)
        if len(cards) == 2 and units == 1:
            a = int(sol.first[soft, t, up])
            v1, v2 = cards if split else sorted(cards)
            if a == DOUBLE and sol.can_double[int(split), v1, v2]:
                total = Fraction(0)
                for p, r, nxt in self.draws(counts):
                    new = hands[:cur] + (((*cards, r), 2),) + hands[cur + 1:]
                    total += p * self.play(nxt, done(new, cur), cur + 1, split)
                return total
            if a == SURRENDER and not split and self.rules.surrender and up != 1:
                return Fraction(-1, 2)
        if int(sol.hs[soft, t, up]) == STAND:
            return self.play(counts, done(hands, cur), cur + 1, split)
        total = Fraction(0)
        for p, r, nxt in self.draws(counts):
            new = hands[:cur] + (((*cards, r), units),) + hands[cur + 1:]
            total += p * self.play(nxt, new, cur, split)
        return total

    def split_ev(self, shoe: list[int], x: int) -> Fraction:
        """Split x-x against the up card, the up card and the pair out of `shoe`."""
        counts = list(shoe)
        counts[self.up] -= 1
        counts[x] -= 2
        return self.play(tuple(counts), (((x,), 1), ((x,), 1)), 0, True)

    def hand_ev(self, shoe: list[int], v1: int, v2: int) -> Fraction:
        """The box's expectation for the first cards v1, v2 against the up card, the chart's choice made."""
        counts = list(shoe)
        counts[self.up] -= 1
        counts[v1] -= 1
        counts[v2] -= 1
        if sorted((v1, v2)) == [1, 10]:
            law = self.dealer(tuple(counts), (self.up,))
            return Fraction(self.rules.blackjack_pays) * (1 - law.get("bj", Fraction(0)))
        if v1 == v2 and self.sol.pair[v1, self.up]:
            return self.split_ev(shoe, v1)
        return self.play(tuple(counts), (((v1, v2), 1),), 0, False)
