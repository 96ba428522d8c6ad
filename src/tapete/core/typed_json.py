"""The project's JSON convention for values (issue 32; docs/format.md, JSON values): every `--json` document
writes a value with its type, never its printed form.

- booleans are `true`/`false`, integers are numbers, absent values are `null`;
- an exact fraction (a rate, a share, a multiple) is the string `"n/d"` in lowest terms, `"3/2"`, `"1/1"`
  (a decimal from the rules is written the same way: it is an exact number);
- a payout "n to d" is the pair of integers `[n, d]` (`[35, 1]`, `[1, 2]`): a rule whose name says it pays
  (`payouts`, `pays`, `payout`, `..._pays`) writes every number in it that way;
- money is an integer of cents; text stays a string; tuples and sets are arrays (sets sorted); mappings are
  objects whose keys are strings (an integer key in decimal).

`rules --json` and `diff --json` follow it (schemas: tapete/lab/schemas/rules.schema.json, diff.schema.json);
`edge --json` and the figures' documents follow it for their own values.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

PAYOUT_WORDS = ("payout", "pays")


def is_payout_rule(name: str) -> bool:
    """`payouts`, `odds_payouts`, `call_pays`, `tie_payout`...: the rule holds payouts."""
    return any(name == w or name.endswith(w) or name.endswith(w + "s") for w in PAYOUT_WORDS)


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def typed(value: Any, payout: bool = False) -> Any:
    """A Python rule value as the convention writes it; `payout` writes its numbers as [n, d] pairs."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Decimal):
        value = Fraction(value)
    if isinstance(value, int) and not payout:
        return value
    if isinstance(value, int | Fraction):
        f = Fraction(value)
        return [f.numerator, f.denominator] if payout else fraction_text(f)
    if isinstance(value, dict):
        return {str(k): typed(v, payout) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return [typed(v, payout) for v in sorted(value, key=repr)]
    if isinstance(value, tuple | list):
        return [typed(v, payout) for v in value]
    raise TypeError(f"no JSON form for {type(value).__name__} {value!r}: add it to tapete.core.typed_json")


def rule_value(name: str, value: Any) -> Any:
    """A rule's value under the convention (its name says whether it holds payouts)."""
    return typed(value, payout=is_payout_rule(name))
