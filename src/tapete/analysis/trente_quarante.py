"""Trente et quarante, exactly: the joint law of the two rows' totals for a full 6-deck shoe as Fractions,
by a recursion over the shoe's composition in integer counts, and every chance's edge with and without the 1%
insurance, under each choice of the zero rule at a 31-31 tie.

The rows. A row is a *prefix* (cards summing to at most 30, in any order) and a *last card* that takes it to
31 or more (000:528). The black row is prefix A and last card u1, then the red row prefix B and last card u2.
Count the shoe's orderings as words in the card values (N!/prod c_v! of them, all equally likely): those that
open with A, u1, B, u2 number

    nA!/prod A_v! * nB!/prod B_v! * (N-n)!/prod (c_v-k_v)!,    k_v = A_v + B_v + [u1=v] + [u2=v],

so, with D = (N)_M for a bound M on the cards a coup uses, D * P(A, u1, B, u2) is the integer

    nA! nB! (N-n)_(M-n) * prod_v (c_v)_(k_v) / (A_v! B_v!).

For each pair of last cards the recursion takes the values one at a time, carrying (sum A, size A, sum B, size B)
and the integer count of ways to take A_v and B_v cards of value v from what is left. The integers run to
hundreds of digits, so the recursion runs in compiled code modulo a dozen primes below 2^31 and the Chinese
remainder theorem joins them (tapete.analysis.modular): exact, the numerators proven below D and checked on one
more prime. The 6-deck result takes about 20 seconds and is stored in `trente_quarante_figures.py` by
`scripts/exact_trente_quarante.py`; a test recomputes it modulo a fresh prime and compares every numerator.

The totals' law gives every edge: the colour of the black row's first card is independent of the card values,
and the two rows are exchangeable, so black, red, colour and inverse all win with the same probability.
The model of the coups after a 31-31 (the prison bet's fate): each later coup has the law of a full shoe,
independent of the tie's cards — the same model as the first coup's (docs/games/trente-quarante.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tapete.analysis.modular import factorials_mod, mulmod, primes_for, reconstruct
from tapete.games.trente_quarante import TQ_RULES, TrenteQuaranteRules, card_value

try:
    from numba import njit
except ImportError:  # pragma: no cover
    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

METHOD = "exact"
NOTE = ("integer counts over the 6-deck shoe's compositions (modular recursion, Chinese remainder); "
        "coups after a 31-31 each from a full shoe")


@njit(cache=True)
def _joint_mod(counts: np.ndarray, stop: int, p: int, m_cards: int) -> np.ndarray:
    """D * P(black row totals b, red row totals r) modulo the prime p, D = (N)_(m_cards), for a shoe with
    counts[v] cards of value v (1..10); the module docstring gives the count."""
    pinv = 1.0 / p
    top = stop - 1                       # the largest prefix sum
    n_total = 0
    for v in range(1, 11):
        n_total += counts[v]
    fact, inv = factorials_mod(n_total, p)
    joint = np.zeros((stop + 10, stop + 10), dtype=np.int64)
    size = top + 1
    coef = np.zeros((size, size), dtype=np.int64)
    for u1 in range(1, 11):
        for u2 in range(u1, 11):
            c = counts.copy()
            c[u1] -= 1
            c[u2] -= 1
            if c[u1] < 0 or c[u2] < 0:
                continue
            # the last cards: (c_u1)(c_u2 - [u1=u2]) ways, the rest of (c_v)_(k_v) in the multinomials below
            lead = counts[u1] * (counts[u2] - (1 if u1 == u2 else 0)) % p
            t = np.zeros((size, size, size, size), dtype=np.int64)
            t[0, 0, 0, 0] = 1
            for v in range(10, 0, -1):
                cv = c[v]
                for i in range(size):          # (cv)! / (i! j! (cv-i-j)!): i to the black prefix, j to the red
                    for j in range(size - i):
                        if i + j <= cv:
                            coef[i, j] = mulmod(mulmod(fact[cv], inv[i], p, pinv),
                                                mulmod(inv[j], inv[cv - i - j], p, pinv), p, pinv)
                nt = np.zeros((size, size, size, size), dtype=np.int64)
                for sa in range(size):
                    for na in range(sa + 1):
                        for sb in range(size):
                            for nb in range(sb + 1):
                                w = t[sa, na, sb, nb]
                                if w == 0:
                                    continue
                                i = 0
                                while sa + v * i <= top and i <= cv:
                                    j = 0
                                    while sb + v * j <= top and i + j <= cv:
                                        x = nt[sa + v * i, na + i, sb + v * j, nb + j] + mulmod(w, coef[i, j], p, pinv)
                                        nt[sa + v * i, na + i, sb + v * j, nb + j] = x - p if x >= p else x
                                        j += 1
                                    i += 1
                t = nt
            for sa in range(max(stop - 10, 0), size):
                for sb in range(max(stop - 10, 0), size):
                    for na in range(sa + 1):
                        for nb in range(sb + 1):
                            w = t[sa, na, sb, nb]
                            if w == 0:
                                continue
                            n = na + nb + 2
                            # nA! nB! (N - n)_(M - n) = nA! nB! (N-n)! / (N-M)!
                            s = mulmod(mulmod(w, lead, p, pinv), mulmod(fact[na], fact[nb], p, pinv), p, pinv)
                            s = mulmod(s, mulmod(fact[n_total - n], inv[n_total - m_cards], p, pinv), p, pinv)
                            if sa + u1 >= stop and sb + u2 >= stop:
                                joint[sa + u1, sb + u2] = (joint[sa + u1, sb + u2] + s) % p
                            if u1 != u2 and sa + u2 >= stop and sb + u1 >= stop:
                                joint[sa + u2, sb + u1] = (joint[sa + u2, sb + u1] + s) % p
    return joint


def cards_bound(counts: dict[int, int], stop: int) -> int:
    """The most cards a coup can use: the two prefixes sum to at most 2(stop-1), so at most as many cards as the
    smallest values make up to that sum, plus the two last cards."""
    room, n = 2 * (stop - 1), 0
    for v in sorted(counts):
        k = min(counts[v], room // v)
        n, room = n + k, room - k * v
    return min(n + 2, sum(counts.values()))


def _array(counts: dict[int, int]) -> np.ndarray:
    a = np.zeros(11, dtype=np.int64)
    for v, k in counts.items():
        a[v] = k
    return a


@dataclass(frozen=True)
class JointLaw:
    """P(black row totals b, red row totals r) = numerators[b, r] / denominator, exactly."""

    denominator: int
    numerators: dict[tuple[int, int], int]

    def p(self, b: int, r: int) -> Fraction:
        return Fraction(self.numerators.get((b, r), 0), self.denominator)


def joint_residues(counts: dict[int, int], stop: int, primes: list[int]) -> np.ndarray:
    m = cards_bound(counts, stop)
    return np.stack([_joint_mod(_array(counts), stop, p, m) for p in primes])


def exact_joint(counts: dict[int, int], stop: int) -> JointLaw:
    """The rows' joint law in exact integers (seconds for six decks: see `stored_joint`)."""
    n = sum(counts.values())
    m = cards_bound(counts, stop)
    denominator = math.perm(n, m)
    primes = primes_for(denominator)
    values = reconstruct(joint_residues(counts, stop, primes), primes, denominator)
    nums = {(int(b), int(r)): int(values[b, r]) for b, r in zip(*np.nonzero(values), strict=True)}
    if sum(nums.values()) != denominator:
        raise ArithmeticError("the rows' law does not sum to one")
    return JointLaw(denominator, nums)


def shoe_composition(decks: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for rank in "A23456789TJQK":
        v = card_value(rank + "S")
        out[v] = out.get(v, 0) + 4 * decks
    return out


@lru_cache(maxsize=4)
def joint_law(decks: int = 6, stop: int = 31) -> JointLaw:
    """The stored 6-deck law (scripts/exact_trente_quarante.py wrote it), else computed now."""
    from tapete.analysis.trente_quarante_figures import FIGURES

    if FIGURES.get("decks") == decks and FIGURES.get("stop") == stop:
        return JointLaw(FIGURES["denominator"], {(b, r): x for b, r, x in FIGURES["joint"]})
    return exact_joint(shoe_composition(decks), stop)


@dataclass(frozen=True)
class ExactOutcomes:
    """The law of one coup from a full shoe, in Fractions."""

    law: JointLaw
    black: Fraction              # black row wins (= red, = colour, = inverse)
    red: Fraction
    tie_31: Fraction             # 31-31: the zero rule
    tie_other: Fraction          # 32-32 ... 40-40: void

    def row_totals(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for (b, _), x in self.law.numerators.items():
            out[b] = out.get(b, Fraction(0)) + Fraction(x, self.law.denominator)
        return dict(sorted(out.items()))


@lru_cache(maxsize=4)
def exact_outcomes(decks: int = 6, stop: int = 31) -> ExactOutcomes:
    law = joint_law(decks, stop)
    d = law.denominator
    black = sum((x for (b, r), x in law.numerators.items() if b < r), 0)
    red = sum((x for (b, r), x in law.numerators.items() if b > r), 0)
    tie_31 = law.numerators.get((stop, stop), 0)
    tie_other = sum((x for (b, r), x in law.numerators.items() if b == r != stop), 0)
    return ExactOutcomes(law, Fraction(black, d), Fraction(red, d), Fraction(tie_31, d), Fraction(tie_other, d))


@dataclass(frozen=True)
class Outcomes:
    """The law of one coup from a full shoe, as floats (for simulation checks and tables)."""

    joint: np.ndarray
    black: float
    red: float
    tie_31: float
    tie_other: float

    def row_totals(self) -> dict[int, float]:
        return {t: float(self.joint[t, :].sum()) for t in range(31, 41)}


def outcomes(decks: int = 6, stop: int = 31) -> Outcomes:
    e = exact_outcomes(decks, stop)
    joint = np.zeros((stop + 10, stop + 10))
    for (b, r), x in e.law.numerators.items():
        joint[b, r] = float(Fraction(x, e.law.denominator))
    return Outcomes(joint, float(e.black), float(e.red), float(e.tie_31), float(e.tie_other))


def edges_of(o: ExactOutcomes) -> dict[str, Fraction]:
    """Edges per unit bet of an even chance: the tie taken half back (the bet returns S/2), or left in prison
    (always), a prison bet freed by a win, lost by a loss, waiting through other ties and halved by another
    31-31 (tapete.engine.zero_system), each later coup from a full shoe."""
    win = o.black
    half = 1 - (2 * win + o.tie_other + o.tie_31 / 2)
    held = win / (1 - o.tie_other - o.tie_31 / 2)        # a prison bet's worth per unit held, ties repeating
    prison = 1 - (2 * win + o.tie_other + o.tie_31 * held)
    return {"half": half, "prison": prison}


def exact_edges(rules: TrenteQuaranteRules) -> list[Any]:
    from tapete.analysis.exact import EdgeResult, Stakes

    o = exact_outcomes(rules.decks, rules.row_stop)
    premium = rules.insurance_premium
    insured = Stakes(1 + premium, 1 + premium,
                     f"the bet and its {float(premium):.0%} premium, paid when it is placed "
                     f"({rules.sources['insurance_premium'].split(';')[0]}; docs/rulings.md#trente-quarante-premium): "
                     "the premium is money wagered and kept")
    edges = edges_of(o)
    out = []
    for kind in rules.kinds:
        for option in ("half", "prison"):
            out.append(EdgeResult(kind, None, option, edges[option], METHOD, NOTE))
        # insured: every tie returns the stake, the premium is kept: exactly the premium (B9-2)
        out.append(EdgeResult(kind, None, "insured", premium, METHOD,
                              "any win, loss or tie: the 1% premium is the whole edge; house_edge per unit of the bet "
                              "(the premium not counted in it)", stakes=insured))
    return out


def exact_rational(counts: dict[int, int], stop: int) -> dict[tuple[int, int], Fraction]:
    """The rows' joint law by exhaustive enumeration in Fractions, for small shoes (the DP's cross-check)."""
    n_total = sum(counts.values())
    out: dict[tuple[int, int], Fraction] = {}

    def row(c: dict[int, int], left: int, prob: Fraction, total: int, first: int | None) -> None:
        for v, k in list(c.items()):
            if k == 0:
                continue
            p = prob * Fraction(k, left)
            c[v] -= 1
            t = total + v
            if t >= stop:
                if first is None:
                    row(c, left - 1, p, 0, t)
                else:
                    out[first, t] = out.get((first, t), Fraction(0)) + p
            else:
                row(c, left - 1, p, t, first)
            c[v] += 1

    row(dict(counts), n_total, Fraction(1), 0, None)
    return out


def tq_rules(jurisdiction: str) -> TrenteQuaranteRules:
    return TQ_RULES[jurisdiction]


@njit(cache=True)
def _simulate(n: int, seed: int, counts: np.ndarray, stop: int) -> np.ndarray:
    """Counts of (black wins, red wins, 31-31, other ties) over n coups, each from a full shoe."""
    np.random.seed(seed)
    out = np.zeros(4, dtype=np.int64)
    c = counts.copy()
    n_total = 0
    for v in range(1, 11):
        n_total += counts[v]
    for _ in range(n):
        for v in range(11):
            c[v] = counts[v]
        left = n_total
        totals = np.zeros(2, dtype=np.int64)
        for row in range(2):
            s = 0
            while s < stop:
                r = np.random.randint(0, left)
                acc = 0
                for v in range(1, 11):
                    acc += c[v]
                    if r < acc:
                        c[v] -= 1
                        s += v
                        break
                left -= 1
            totals[row] = s
        if totals[0] == totals[1]:
            out[2 if totals[0] == stop else 3] += 1
        else:
            out[0 if totals[0] < totals[1] else 1] += 1
    return out


def simulate(coups: int, seed: int = 1, decks: int = 6) -> dict[str, float]:
    """Frequencies of the four outcomes over `coups` seeded coups (the DP's Monte Carlo check)."""
    from tapete.core.rng import simulation_stream

    s = int(simulation_stream(seed, 0).integers(0, 2**31 - 1))
    k = _simulate(coups, s, _array(shoe_composition(decks)), 31)
    return {"black": k[0] / coups, "red": k[1] / coups, "tie_31": k[2] / coups, "tie_other": k[3] / coups}


# -- `tapete simulate trente-quarante`: whole bets, the zero rule included -----------------------------------
PRISON_DEPTH = 64            # 31-31 ties met by one bet; deeper (never seen) counts as the last


@njit(cache=True, inline="always")
def _tq_coup(deck: np.ndarray, value: np.ndarray, stop: int, trace: np.ndarray, row: int, used: np.ndarray) -> tuple[int, int, int]:
    """One coup from a full shoe (the deck array stays a permutation; drawn cards swap to its end): the black
    row, then the red, each until `stop` (000:528). Returns (black total, red total, first card)."""
    left = deck.size
    totals = np.zeros(2, dtype=np.int64)
    first = -1
    for r in range(2):
        s = 0
        while s < stop:
            j = int(np.random.random() * left)
            left -= 1
            card = deck[j]
            deck[j] = deck[left]
            deck[left] = card
            if first < 0:
                first = card
            s += value[card]
            if row < trace.shape[0] and used[row] < trace.shape[1]:
                trace[row, used[row]] = card
                used[row] += 1
        totals[r] = s
    return totals[0], totals[1], first


@njit(cache=True)
def _tq_rounds(n: int, seed: int, value: np.ndarray, red: np.ndarray, stop: int, first: np.ndarray,
               prison: np.ndarray, trace: np.ndarray, used: np.ndarray) -> None:
    """first[black total - stop, red total - stop, first card red]: the coup on which every bet rides.
    After a 31-31 tie the bets in prison ride further coups, each from a full shoe as the exact analysis takes
    them: prison[ties met, black total - stop, red total - stop, first card red] counts the coup that decides
    them (equal totals other than 31 wait, B9-4; another 31-31 adds a tie)."""
    np.random.seed(seed)
    deck = np.arange(value.size)
    for r in range(n):
        bt, rt, c = _tq_coup(deck, value, stop, trace, r, used)
        first[bt - stop, rt - stop, red[c]] += 1
        if bt != stop or rt != stop:
            continue
        zeros = 1
        while True:
            bt, rt, c = _tq_coup(deck, value, stop, trace, r, used)
            if bt == rt:
                if bt == stop and zeros < prison.shape[0] - 1:
                    zeros += 1
                continue
            prison[zeros, bt - stop, rt - stop, red[c]] += 1
            break


def shoe_cards(decks: int) -> list[str]:
    return [r + s for _ in range(decks) for s in "SHDC" for r in "A23456789TJQK"]


class TrenteQuaranteKernel:
    """`tapete simulate trente-quarante`: each chance half back at 31-31, in prison, or insured (1%)."""

    OPTIONS = ("half", "prison", "insured")

    def __init__(self, game: Any, jurisdiction: str) -> None:
        from tapete.games.trente_quarante import is_red

        self.game = game
        self.rules = game.rules_for(jurisdiction)
        self.cards = shoe_cards(self.rules.decks)
        self.value = np.array([card_value(c) for c in self.cards], dtype=np.int64)
        self.red = np.array([int(is_red(c)) for c in self.cards], dtype=np.int64)

    def _check(self, specs: list[Any]) -> None:
        from tapete.core.errors import TapeteError

        for spec in specs:
            if spec.kind not in self.rules.kinds or spec.option not in self.OPTIONS:
                raise TapeteError("unknown-bet-kind", f"trente-quarante simulates {', '.join(self.rules.kinds)} each "
                                  f"@{', @'.join(self.OPTIONS)}, not {spec.label()}")

    def play(self, rounds: int, seed: int, traced: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        stop = self.rules.row_stop
        first = np.zeros((11, 11, 2), dtype=np.int64)
        prison = np.zeros((PRISON_DEPTH, 11, 11, 2), dtype=np.int64)
        trace = np.zeros((traced, 120), dtype=np.int64)
        used = np.zeros(traced, dtype=np.int64)
        _tq_rounds(rounds, seed, self.value, self.red, stop, first, prison, trace, used)
        return first, prison, trace, used

    def returned(self, kind: str, option: str, bt: int, rt: int, first_red: bool, zeros: int = 0) -> Fraction:
        """Per unit of the chance, 1 + net (the premium counted in the stake): the reducer's `winners`, payout and
        zero system (000:504-514; 003:1121-1133; the refund and the held stake of tapete.engine.zero_system)."""
        from tapete.engine import zero_system
        from tapete.games.trente_quarante import winners

        stop = self.rules.row_stop
        premium = self.rules.insurance_premium if option == "insured" else Fraction(0)
        won = winners(bt, rt, first_red)
        if zeros:                                        # freed from prison or lost
            back = zero_system.held(1, zeros) if won is not None and kind in won else Fraction(0)
        elif won is not None:
            back = 1 + self.rules.payout if kind in won else Fraction(0)
        elif bt != stop or option == "insured":          # void, or insured at the 31 tie: the stake back
            back = Fraction(1)
        elif option == "half":
            back = zero_system.refund(1, 1)
        else:
            raise ValueError("a prison bet at 31-31 is settled by the coups after it")
        return back - premium

    def histogram(self, kind: str, option: str, first: np.ndarray, prison: np.ndarray) -> dict[Fraction, int]:
        stop = self.rules.row_stop
        hist: dict[Fraction, int] = {}
        for b, r, c in zip(*np.nonzero(first), strict=True):
            if b == r == 0 and option == "prison":
                continue
            ret = self.returned(kind, option, stop + int(b), stop + int(r), bool(c))
            hist[ret] = hist.get(ret, 0) + int(first[b, r, c])
        if option == "prison":
            for z, b, r, c in zip(*np.nonzero(prison), strict=True):
                ret = self.returned(kind, option, stop + int(b), stop + int(r), bool(c), int(z))
                hist[ret] = hist.get(ret, 0) + int(prison[z, b, r, c])
        return hist

    def run(self, specs: list[Any], rounds: int, gen: np.random.Generator) -> list[dict[Fraction, int]]:
        self._check(specs)
        first, prison, _, _ = self.play(rounds, int(gen.integers(0, 2**31 - 1)))
        return [self.histogram(s.kind, s.option, first, prison) for s in specs]
