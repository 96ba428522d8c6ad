"""The carousels (jackpots) of póquer sin descarte and tripóquer as meters, and their long-run return.

A carousel is a meter, not a paytable: each carousel stake feeds it a share, the prizes come out of it, and after a
royal flush the house seeds it again. Over a long run everything the meter pays is what went into it — the shares
of the stakes and the seeds — less what is left on it at the end, which stays bounded while the totals grow. So the
long-run return per unit of carousel stake is

    return = share + seed x P(royal flush) + P(a prize),

the last term for the winning stakes, which come back on top of their prize (docs/rulings.md#sin-descarte-jackpot),

whatever the meter shows on a given day, provided that (1) the meter always holds the prizes it owes (the share
covers the fixed prizes it pays on average, else it drains and prizes are cut to what it holds), (2) it has no
cap (no text sets one), (3) one royal flush resets it per hand (several in one round are rarer than 10^-10), and
(4) the house seeds it again after each royal flush, at the seed the casino states (ES-AN: at least 5,000 x the
stake, 003:3240-3242; ES-IB sets none). The texts:

* ES-IB sin descarte (000:1357-1365): 90% of the coins put into the carousel go to the meter (000:1365); a royal
  flush takes all of it, a straight flush 10% (000:1361-1363). No seed, no cap, no minimum return stated.
* ES-AN sin descarte (003:3218-3285): the meter starts at 5,000 x the stake or more and grows "en función de las
  cantidades jugadas" (003:3240-3244: the share is the casino's); all prizes, the fixed ones too, are paid out of
  it (003:3247-3249). No minimum return stated.
* ES-AN tripóquer (003:3820-3833): "similar" to sin descarte's, with a minimum return in prizes of 70%
  (003:3827-3830).

The figure is exact arithmetic on this model, labelled `model` (never `exact`). `check_carousel` is what a casino
file's validation calls for a configured carousel (share, seed, cap).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from tapete.analysis.exact import EdgeResult
from tapete.analysis.poker_tables import five_card_counts


@dataclass(frozen=True)
class CarouselText:
    """What a jurisdiction's text sets for a game's carousel."""

    game: str
    jurisdiction: str
    meter_shares: Mapping[str, Fraction]          # category -> share of the meter it takes
    fixed: Mapping[str, Fraction]                 # category -> multiple of the stake, paid out of the meter
    share: Fraction | None                        # share of each stake into the meter, where the text fixes it
    seed_floor: Fraction | None                   # the lowest seed, x the stake, where the text sets one
    minimum_return: Fraction | None               # where the text sets one
    sources: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Carousel:
    """A configured carousel: the text's and the casino's choices (share, seed x the stake, cap x the stake)."""

    text: CarouselText
    share: Fraction
    seed: Fraction
    cap: Fraction | None = None


def texts() -> dict[tuple[str, str], CarouselText]:
    """Every carousel the catalogs have, by (game, jurisdiction)."""
    from tapete.games.poker.sin_descarte import JACKPOT_FIXED_AN, JACKPOT_FLOOR, JACKPOT_SHARES_IB

    floor = Fraction(JACKPOT_FLOOR)
    return {
        ("poker-sin-descarte", "ES-IB"): CarouselText(
            "poker-sin-descarte", "ES-IB", JACKPOT_SHARES_IB, {}, Fraction(9, 10), None, None,
            {"share": "000:1365", "prizes": "000:1361-1363", "seed": "000:1357-1365 (silent)",
             "minimum_return": "000:1357-1365 (silent)"}),
        ("poker-sin-descarte", "ES-AN"): CarouselText(
            "poker-sin-descarte", "ES-AN", JACKPOT_SHARES_IB, JACKPOT_FIXED_AN, None, floor, None,
            {"share": "003:3243-3244 (not stated: the casino's)", "prizes": "003:3247-3271",
             "seed": "003:3240-3242", "minimum_return": "003:3218-3285 (silent)"}),
        ("tripoker", "ES-AN"): CarouselText(
            "tripoker", "ES-AN", JACKPOT_SHARES_IB, JACKPOT_FIXED_AN, None, floor, Fraction(7, 10),
            {"share": "003:3825-3826; 003:3243-3244 (not stated: the casino's)", "prizes": "003:3247-3271",
             "seed": "003:3240-3242", "minimum_return": "003:3827-3830"}),
    }


def _law() -> dict[str, Fraction]:
    """P(category) of five random cards: the player's five (sin descarte), or three own and two common (tripóquer)."""
    counts = five_card_counts()
    total = sum(counts.values())
    return {c: Fraction(n, total) for c, n in counts.items()}


def fixed_cost(text: CarouselText) -> Fraction:
    """The fixed prizes the meter pays per unit of stake, on average (the winning stake itself comes back apart)."""
    law = _law()
    return sum((law[c] * m for c, m in text.fixed.items()), Fraction(0))


def stakes_back(text: CarouselText) -> Fraction:
    """P(a prize): the winning stakes, returned with their prize and not out of the meter."""
    law = _law()
    return sum((law[c] for c in {*text.fixed, *text.meter_shares}), Fraction(0))


def long_run_return(carousel: Carousel) -> Fraction:
    """share + seed x P(royal flush) + P(a prize): the model's return per unit of carousel stake (the module's
    docstring)."""
    return carousel.share + carousel.seed * _law()["royal-flush"] + stakes_back(carousel.text)


def default_carousel(text: CarouselText) -> Carousel:
    """The configuration `tapete edge` shows when none is given: the text's share where it sets one (ES-IB 90%),
    else the lowest share the text allows — the one that meets its minimum return, or, with no minimum, the one at
    which the meter just pays its own fixed prizes; the seed at the text's floor, else 5,000 x (the engine's
    default meter)."""
    seed = text.seed_floor if text.seed_floor is not None else Fraction(5000)
    if text.share is not None:
        return Carousel(text, text.share, seed)
    other = seed * _law()["royal-flush"] + stakes_back(text)
    floor = fixed_cost(text) if text.minimum_return is None else max(fixed_cost(text), text.minimum_return - other)
    return Carousel(text, floor, seed)


def check_carousel(game: str, jurisdiction: str, share: Fraction | None = None, seed: Fraction | None = None,
                   cap: Fraction | None = None) -> list[str]:
    """What breaks the text or the model in a configured carousel (share of each stake into the meter, seed and cap
    as multiples of the stake; None: the text's or the default): one sentence per problem, none when it is sound.
    The casino file's validation calls this for every carousel it configures."""
    text = texts().get((game, jurisdiction))
    if text is None:
        return [f"{game} has no carousel in {jurisdiction}"]
    base = default_carousel(text)
    carousel = Carousel(text, base.share if share is None else Fraction(share),
                        base.seed if seed is None else Fraction(seed), None if cap is None else Fraction(cap))
    problems = []
    if not 0 <= carousel.share <= 1:
        problems.append(f"the share of each stake into the meter is a fraction 0-1, not {carousel.share}")
    if text.share is not None and carousel.share != text.share:
        problems.append(f"{jurisdiction}: {float(text.share):.0%} of each carousel stake goes into the meter "
                        f"({text.sources['share']}), not {float(carousel.share):.2%}")
    if text.seed_floor is not None and carousel.seed < text.seed_floor:
        problems.append(f"{jurisdiction}: the meter starts at no less than {float(text.seed_floor):,.0f} x the stake "
                        f"({text.sources['seed']}), not {float(carousel.seed):,.0f} x")
    if carousel.cap is not None:
        problems.append("a capped meter is not modelled: no text sets a cap, and what the stakes above it would "
                        "feed is not stated")
    if text.fixed and carousel.share < fixed_cost(text):
        problems.append(f"the share ({float(carousel.share):.2%}) is below what the meter pays in fixed prizes "
                        f"({float(fixed_cost(text)):.2%} of the stakes): the meter drains and prizes are cut")
    rtp = long_run_return(carousel)
    if text.minimum_return is not None and rtp < text.minimum_return:
        problems.append(f"{jurisdiction}: the long-run return {float(rtp):.2%} is under the minimum of "
                        f"{float(text.minimum_return):.0%} ({text.sources['minimum_return']})")
    return problems


def carousel_line(game: str, jurisdiction: str, option: str, share: Fraction | None = None,
                  seed: Fraction | None = None) -> EdgeResult | None:
    """`tapete edge`'s long-run line of a carousel, labelled `model`, its assumptions in the note."""
    text = texts().get((game, jurisdiction))
    if text is None:
        return None
    base = default_carousel(text)
    carousel = Carousel(text, base.share if share is None else Fraction(share),
                        base.seed if seed is None else Fraction(seed))
    rtp = long_run_return(carousel)
    why = ("the text's" if text.share is not None else "given" if share is not None else
           "the lowest meeting the minimum return" if text.minimum_return is not None else
           "the lowest that pays the fixed prizes")
    note = (f"long-run return of the meter = share + seed x P(royal flush) + P(a prize) (its stake back): share {float(carousel.share):.4%} "
            f"({why}; {text.sources['share']}), seed {float(carousel.seed):,.0f} x the stake "
            f"({text.sources['seed']}); assumes no cap, the meter always holding the prizes it owes (paid out of it, "
            f"{text.sources['prizes']}), one royal flush per reset, the house seeding it again after each")
    minimum = (text.minimum_return, text.sources["minimum_return"]) if text.minimum_return is not None else None
    problems = tuple(check_carousel(game, jurisdiction, carousel.share, carousel.seed))
    return EdgeResult("jackpot", None, option, 1 - rtp, "model", note, minimum_return=minimum, problems=problems)
