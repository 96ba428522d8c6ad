"""The lookup tables and compiled kernel behind `rank_batch`: a hand in seven additions and two lookups.

How a hand is looked up. Every card adds one precomputed int64 *card key* into a running sum that holds three
fields at once:

* bits 0-15: four 4-bit suit counters, started at 3, so a counter's top bit is set exactly when its suit holds
  five or more cards: the sum `& 0x8888` finds the flush suit without a branch per card;
* bits 16-31: the sum of the *low-group* keys of the 2..8 cards, bits 32-47: that of the 9..A cards. The group
  keys `GROUP_KEYS` are chosen (greedily, smallest first) so that every multiset of at most seven cards, at
  most four per rank, has its own sum, whatever its size: a sum names one rank multiset.

A jokerless hand with no flush is worth what its rank multiset is worth, so `values[high_n[hi] + low[lo]]`
ranks it: `low` numbers the low-group multisets within their size, and `high_n` places each high-group
multiset's block of `n`-card hands (a mixed-radix numbering with no hole: the table has exactly one entry per
multiset, 49,205 for seven cards). A hand with a flush is worth its best flush, a 13-bit mask of the flush
suit's ranks into an 8,192-entry table (with seven cards, five of one suit leave no room for a full house or
four of a kind). A per-hand bitmask of the cards, OR-ed along the way, gives that mask and catches repeated
cards.

Every table entry is computed by the scalar evaluator (`ranking._eval_plain`, which `evaluator` reads hands with too) on one representative hand, so
the two paths cannot disagree by construction; building all of them takes about a second on first use and
stays in memory. The kernel is compiled with Numba (`cache=True`); without Numba, a NumPy version gives the
same values.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from tapete.games.poker.ranking import JOKER_1, Rules, _eval_plain

LOW_RANKS = 7  # ranks 0..6 (2..8) form the low group, 7..12 (9..A) the high group
HIGH_RANKS = 6
# Greedy: each key is the smallest above the previous one such that every multiset of at most 7 cards (at most
# four per rank) over the keys so far has a distinct sum, across all sizes. The high group uses the first six.
GROUP_KEYS = (1, 5, 24, 112, 521, 2247, 9244)
MAX_CARDS = 7
SUIT_BIAS = 0x3333
FLUSH_BITS = 0x8888


@dataclass(frozen=True)
class Tables:
    """The arrays one (rules, hand size) lookup needs; `values`, `flush`: strengths, -1 where impossible."""

    valid: np.ndarray     # uint8[256]: 1 for a card of the rules' deck
    card_key: np.ndarray  # int64[256]
    card_bit: np.ndarray  # int64[256]: 1 << (16 * suit + rank)
    low: np.ndarray       # int32: low-group key -> index of the multiset within its size
    high: np.ndarray      # int32: high-group key -> first index of its block for this hand size
    values: np.ndarray    # int32: one strength per rank multiset of `size` cards
    flush: np.ndarray     # int32[8192]: flush-suit rank mask -> strength
    size: int


def _multisets(nranks: int) -> dict[int, list[tuple[int, ...]]]:
    """Count vectors over `nranks` ranks, at most 4 each, by total up to 7, each in lexicographic order."""
    out: dict[int, list[tuple[int, ...]]] = {s: [] for s in range(MAX_CARDS + 1)}
    for counts in product(range(5), repeat=nranks):
        total = sum(counts)
        if total <= MAX_CARDS:
            out[total].append(counts)
    return out


def _group_key(counts: tuple[int, ...]) -> int:
    return sum(c * k for c, k in zip(counts, GROUP_KEYS, strict=False))


class _Layout:
    """The rules-independent numbering of rank multisets, for hands of 5, 6 and 7 cards."""

    def __init__(self) -> None:
        low_sets, high_sets = _multisets(LOW_RANKS), _multisets(HIGH_RANKS)
        for sets in (low_sets, high_sets):
            keys = [_group_key(c) for s in sets.values() for c in s]
            if len(set(keys)) != len(keys):  # pragma: no cover - GROUP_KEYS is checked at every build
                raise AssertionError("GROUP_KEYS do not give distinct sums")
        self.low_sets, self.high_sets = low_sets, high_sets
        self.low = np.full(max(_group_key(c) for s in low_sets.values() for c in s) + 1, -1, dtype=np.int32)
        for sets in low_sets.values():
            for i, c in enumerate(sets):
                self.low[_group_key(c)] = i
        self.high_size = max(_group_key(c) for s in high_sets.values() for c in s) + 1
        self.card_key = np.zeros(256, dtype=np.int64)
        self.card_bit = np.zeros(256, dtype=np.int64)
        for card in range(JOKER_1):
            rank, suit = card >> 2, card & 3
            group = GROUP_KEYS[rank] << 16 if rank < LOW_RANKS else GROUP_KEYS[rank - LOW_RANKS] << 32
            self.card_key[card] = group + (1 << (4 * suit))
            self.card_bit[card] = 1 << (16 * suit + rank)

    def numbering(self, size: int) -> tuple[np.ndarray, list[tuple[int, tuple[int, ...]]]]:
        """`high` for `size`-card hands, and every multiset (13 counts, low ranks first) with its index."""
        high = np.zeros(self.high_size, dtype=np.int32)
        entries: list[tuple[int, tuple[int, ...]]] = []
        base = 0
        for k in range(size + 1):
            lows, highs = self.low_sets[size - k], self.high_sets[k]
            for hi, h in enumerate(highs):
                high[_group_key(h)] = base + hi * len(lows)
                for li, lo in enumerate(lows):
                    entries.append((base + hi * len(lows) + li, lo + h))
            base += len(lows) * len(highs)
        return high, entries


_layout: _Layout | None = None
_tables: dict[tuple[tuple[int, bool, bool, bool, bool], int], Tables] = {}
_flush: dict[tuple[int, bool, bool, bool, bool], np.ndarray] = {}


def _flush_table(rules: Rules) -> np.ndarray:
    table = _flush.get(rules.table_key)
    if table is None:
        table = np.full(1 << 13, -1, dtype=np.int32)
        for mask in range(1 << 13):
            ranks = [r for r in range(13) if mask >> r & 1]
            if 5 <= len(ranks) <= MAX_CARDS and ranks[0] >= rules.low_rank:
                table[mask] = _eval_plain(ranks, [0] * len(ranks), rules)[0]
        _flush[rules.table_key] = table
    return table


def get_tables(rules: Rules, size: int) -> Tables:
    """The tables for `size`-card hands (5, 6 or 7) under `rules`, built on first use and kept."""
    global _layout
    key = (rules.table_key, size)
    found = _tables.get(key)
    if found is not None:
        return found
    if size not in (5, 6, 7):
        raise ValueError(f"batch hands have 5, 6 or 7 cards, not {size}")
    if _layout is None:
        _layout = _Layout()
    high, entries = _layout.numbering(size)
    values = np.full(len(entries), -1, dtype=np.int32)
    for index, counts in entries:
        if any(counts[r] for r in range(rules.low_rank)):
            continue
        # One representative hand: its cards in rank order take suits 0,1,2,3,0,... — never five of a suit.
        ranks = [r for r in range(13) for _ in range(counts[r])]
        values[index] = _eval_plain(ranks, [i & 3 for i in range(size)], rules)[0]
    valid = np.zeros(256, dtype=np.uint8)
    valid[4 * rules.low_rank : JOKER_1] = 1
    lay = _layout
    found = Tables(valid, lay.card_key, lay.card_bit, lay.low, high, values, _flush_table(rules), size)
    _tables[key] = found
    return found


# ---------------------------------------------------------------------------------------------------- kernels


def _kernel_numpy(hands: np.ndarray, t: Tables, out: np.ndarray) -> int:
    """The same computation as `_kernel`, vectorised: for machines without Numba."""
    h = hands.astype(np.intp)
    bits_each = t.card_bit[h]
    bits = np.bitwise_or.reduce(bits_each, axis=1)
    ok = t.valid[h].all(axis=1) & (bits_each.sum(axis=1) == bits)
    key = t.card_key[h].sum(axis=1) + SUIT_BIAS
    flush = key & FLUSH_BITS
    suit = np.where(flush & 0x8, 0, np.where(flush & 0x80, 1, np.where(flush & 0x800, 2, 3)))
    mask = (bits >> (16 * suit)) & 0x1FFF
    plain = ok & (flush == 0)
    out[:] = -1
    out[ok & (flush != 0)] = t.flush[mask[ok & (flush != 0)]]
    k = key[plain]
    out[plain] = t.values[t.high[(k >> 32) & 0xFFFF] + t.low[(k >> 16) & 0xFFFF]]
    return int((~ok).sum())


def _kernel_source(hands, valid, card_key, card_bit, low, high, values, flush, out):  # type: ignore
    """Rank each row of `hands` into `out` (-1 for a bad hand); return how many were bad."""
    bad = 0
    n, k = hands.shape
    for i in range(n):
        key = 0x3333
        bits = 0
        ok = True
        for j in range(k):
            c = hands[i, j]
            b = card_bit[c]
            if valid[c] == 0 or (bits & b) != 0:
                ok = False
            bits |= b
            key += card_key[c]
        if not ok:
            out[i] = -1
            bad += 1
            continue
        f = key & 0x8888
        if f == 0:
            out[i] = values[high[(key >> 32) & 0xFFFF] + low[(key >> 16) & 0xFFFF]]
        else:
            if f & 0x8:
                m = bits
            elif f & 0x80:
                m = bits >> 16
            elif f & 0x800:
                m = bits >> 32
            else:
                m = bits >> 48
            out[i] = flush[m & 0x1FFF]
    return bad


_kernel = None


def _compiled():  # type: ignore[no-untyped-def]
    """The Numba kernel, compiled (or loaded from Numba's cache) on first use; None without Numba."""
    global _kernel
    if _kernel is None:
        try:
            import numba
        except ImportError:  # pragma: no cover - numba is a dependency; this keeps bare NumPy working
            _kernel = False
        else:
            _kernel = numba.njit(cache=True, nogil=True, boundscheck=False)(_kernel_source)
    return _kernel or None


def evaluate(hands: np.ndarray, rules: Rules, *, check: bool = True, use_numba: bool = True) -> np.ndarray:
    """Strengths of an (N, 5..7) array of card indices under `rules` (see `evaluator.rank_batch`)."""
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in (5, 6, 7):
        raise ValueError(f"batch hands are an (N, 5..7) array, got shape {arr.shape}")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 255):
            raise ValueError("card indices are 0..51")
        arr = arr.astype(np.uint8)
    arr = np.ascontiguousarray(arr)
    t = get_tables(rules, arr.shape[1])
    out = np.empty(arr.shape[0], dtype=np.int32)
    kernel = _compiled() if use_numba else None
    if kernel is not None:
        bad = kernel(arr, t.valid, t.card_key, t.card_bit, t.low, t.high, t.values, t.flush, out)
    else:
        bad = _kernel_numpy(arr, t, out)
    if bad and check:
        row = int(np.argmax(out < 0))
        raise ValueError(
            f"{bad} hand(s) hold a repeated card, a joker or a card outside the {rules.name} deck "
            f"(first: row {row}, {arr[row].tolist()})"
        )
    return out
