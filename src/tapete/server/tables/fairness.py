"""Provably fair outcomes: commit to a server seed before bets close, draw from it, reveal it after.

For a spin, roll or any chance event, the outcome is drawn from `game.chance(state)` — the engine's own
exact probabilities — with the table CSPRNG seeded by the round's secret seed: the probabilities are put on
their common denominator D and `randbelow(D)` picks one without bias. Anyone holding the revealed seed, the
state before the draw and the engine recomputes the outcome (`tapete verify ROUND.json`), and checks that
SHA-256(seed) is the commitment published when the round opened. Card games commit to the seed of the
whole shoe (revealed when the shoe ends: revealing it earlier would tell the remaining cards).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.server.tables.seeds import commitment, new_seed  # noqa: F401 - fairness names them for the server
from tapete.server.tables.shoes import prepare


def pick(outcomes: list[tuple[Event, Fraction]], rng: TableRng) -> Event:
    """One outcome at its exact probability: weights on the common denominator, `randbelow` over it."""
    if not outcomes:
        raise TapeteError("no-chance", "nothing rides on chance now")
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    weights = [p.numerator * (denominator // p.denominator) for _, p in outcomes]
    total = sum(weights)
    if total != denominator:
        raise TapeteError("bad-chance", f"the chance event's probabilities sum to {Fraction(total, denominator)}, not 1")
    r = rng.randbelow(denominator)
    for (event, _), w in zip(outcomes, weights, strict=True):
        if r < w:
            return event
        r -= w
    raise AssertionError("unreachable")


def draw_rng(seed_hex: str, index: int) -> TableRng:
    """The generator of the round's `index`-th draw: seed || index (0 for the spin, 1, 2... for the
    relaunches after a void spin), so every draw of the round follows from the one committed seed."""
    return TableRng(bytes.fromhex(seed_hex) + index.to_bytes(4, "big"))


def event_document(event: Event) -> dict[str, Any]:
    """An engine event as docs/format.md writes it (the inverse of conformance.document.parse_event)."""
    if isinstance(event, Bet):
        body: dict[str, Any] = {"id": event.id, "player": event.player, "kind": event.kind, "amount": event.amount}
        if event.on is not None:
            body["on"] = list(event.on)
        body.update(event.extra)
        return {"bet": body}
    if isinstance(event, Outcome):
        doc: dict[str, Any] = {event.name: event.value}
        if event.last:
            doc["last"] = True
        return doc
    if isinstance(event, Act):
        body = {"do": event.do, **({"bet": event.bet} if event.bet is not None else {"by": event.by}), **event.fields}
        return {"act": body}
    if isinstance(event, Deal):
        return {"deal": {}, "last": True} if isinstance(event, Deal) and event.last else {"deal": {}}
    if isinstance(event, Close):
        return {"close": {}}
    if isinstance(event, Limits):
        return {"limits": dict(event.values)}
    if isinstance(event, Void):
        return {"void": event.reason}
    raise TypeError(f"not an event: {event!r}")


def verify_round(record: dict[str, Any]) -> dict[str, Any]:
    """Recompute a round record's fairness: commitment, every drawn outcome, a shuffled shoe's cards,
    and (for a round that began at a fresh table) the settlement from its events."""
    from tapete.catalog import get_game
    from tapete.engine.serialize import from_json

    checks: list[dict[str, Any]] = []
    game = get_game(record["game"])
    seed, commit = record.get("seed"), record.get("commitment")
    if record.get("draws"):
        if not seed:
            return {"ok": False, "checks": [{"check": "seed", "ok": False, "detail": "the seed is not revealed yet"}]}
        checks.append({"check": "commitment", "ok": commitment(seed) == commit, "detail": f"sha256(seed) = {commitment(seed)}"})
        for d in record["draws"]:
            state = from_json(game.state_type(), d["state"])
            drawn = pick(game.chance(state), draw_rng(seed, d["index"]))
            recomputed = event_document(drawn)
            checks.append({"check": f"draw {d['index']}", "ok": recomputed == d["outcome"],
                           "detail": f"recomputed {json.dumps(recomputed)}, recorded {json.dumps(d['outcome'])}"})
    shoe = record.get("shoe")
    if shoe:
        if not shoe.get("seed"):
            return {"ok": False, "checks": [{"check": "shoe", "ok": False,
                                             "detail": "the shoe's seed is revealed when the shoe ends"}]}
        cards = list(prepare(game, record["jurisdiction"], record["table"], shoe["seed"])["cards"])
        dealt, start = shoe.get("dealt", []), shoe.get("start", 0)
        ok = cards[start:start + len(dealt)] == dealt and commitment(shoe["seed"]) == shoe.get("commitment")
        checks.append({"check": "shoe", "ok": ok, "detail": f"{len(dealt)} cards from position {start} of the shoe "
                       f"shuffled from the seed; sha256(seed) = {commitment(shoe['seed'])}"})
    if record.get("fresh") and record.get("settlement") is not None:
        from tapete.conformance.document import settle_document

        doc = {"game": record["game"], "jurisdiction": record["jurisdiction"], "table": record["table"],
               "events": record["events"]}
        if shoe and shoe.get("dealt") is not None and game.uses_shoe:
            doc["shoe"] = shoe["dealt"]
        replay = settle_document(doc)
        mine = {k: v for k, v in replay.get("bets", {}).items()}
        theirs = record["settlement"].get("bets", {})
        checks.append({"check": "settlement", "ok": "error" not in replay and mine == theirs,
                       "detail": json.dumps(replay) if "error" in replay else (
                           "the round document replayed through the engine" if mine == theirs
                           else "the replayed settlement differs: " + "; ".join(bet_differences(mine, theirs)))})
    return {"ok": all(c["ok"] for c in checks) and bool(checks), "round": record.get("round"), "checks": checks}


def bet_differences(recomputed: dict[str, Any], recorded: dict[str, Any]) -> list[str]:
    """Per bet that differs, what (issue 28): `b2: returned 600 recomputed, 0 recorded`."""
    out = []
    for bet_id in sorted(set(recomputed) | set(recorded)):
        mine, theirs = recomputed.get(bet_id), recorded.get(bet_id)
        if mine == theirs:
            continue
        if mine is None or theirs is None:
            out.append(f"{bet_id}: {'only in the record' if mine is None else 'missing from the record'}")
            continue
        fields = [f"{k} {json.dumps(mine.get(k))} recomputed, {json.dumps(theirs.get(k))} recorded"
                  for k in sorted(set(mine) | set(theirs)) if mine.get(k) != theirs.get(k)]
        out.append(f"{bet_id}: {', '.join(fields)}")
    return out
