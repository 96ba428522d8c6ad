"""The rules panel of a table page (issue 31, item 4): what each bet pays, the table's limits per kind of bet,
the blinds at poker, what each decision means, what happens when the player does nothing and how long he has —
each line citing the catalog's article.

Nothing here is a second copy of the rules: every figure is read from the game's rules data (`Game.rules_for`,
the same fields `tapete rules` prints), the table's limits from the engine's layout of a fresh table, the time
from the table's `timing`; the words are the page strings (`tapete/i18n/<lang>/web.json`, keys `rp_*`, `rv_*`,
`kind_*`). A citation is resolved to its article as `tapete cite` does (core.sources.locate).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.jurisdictions import own_citations
from tapete.core.sources import CITATION, locate

# verb -> the rule field that grants it (and whose article the panel cites); a verb whose field is false is not
# offered in that jurisdiction, so the panel does not explain it
VERB_FIELD = {
    "prison": "zero_on_simple", "half": "zero_on_simple", "insure": "insurance_pays", "even-money": "even_money",
    "surrender": "surrender", "double": "double_totals", "split": "resplit", "hit": "dealer_stands_soft_17",
    "stand": "dealer_stands_soft_17", "remove": "removable", "rematch": "tie_rule",
}
# the rule field that says what pays what, by game family (tapete rules <game> lists them)
PAY_FIELDS = ("payouts", "one_roll_payouts", "hardway_payouts", "place_payouts", "place_to_lose_payouts",
              "odds_payouts", "blackjack_pays", "insurance_pays", "tie_payout")
RATIO = re.compile(r"^\d+:\d+$")


@dataclass
class Row:
    """One line of the panel: what (a bet, a decision), its figure or meaning, and the article it comes from."""

    what: str
    text: str
    cite: str = ""          # 'the catalog's heading, article (001:288)'
    source: str = ""        # the bare seed citation, for `tapete cite`


@dataclass
class Panel:
    title: str
    pays: list[Row] = field(default_factory=list)
    limits: list[Row] = field(default_factory=list)
    blinds: list[Row] = field(default_factory=list)
    decisions: list[Row] = field(default_factory=list)
    timing: list[Row] = field(default_factory=list)
    catalog: str = ""


def ratio(value: Any) -> str:
    """[35, 1] or Fraction -> '35:1'."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return f"{value[0]}:{value[1]}"
    if isinstance(value, Fraction):
        return f"{value.numerator}:{value.denominator}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value}:1"
    return str(value)


PAYOUT = (list, tuple, Fraction, int)


def article(source: str, jurisdiction: str) -> tuple[str, str]:
    """A rule's source -> ('the game's heading, its article (001:288)', '001:288'): the first citation of the
    jurisdiction's own text, resolved as `tapete cite` resolves it; ('', '') when it cites none."""
    own = own_citations(source, jurisdiction) if source else ""
    m = CITATION.search(own)
    if not m:
        return "", ""
    seed, line = m.group(1), int(m.group(2))
    bare = m.group(0)
    try:
        place = locate(seed, line)
    except ValueError:
        return bare, bare
    return f"{place.article_text()} ({bare})", bare


def catalog_heading(source: str, jurisdiction: str) -> str:
    """The catalog's heading of the game a rule belongs to ('03 BLACK JACK O VEINTIUNO' -> 'Black jack o veintiuno')."""
    m = CITATION.search(own_citations(source, jurisdiction) if source else "")
    if not m:
        return ""
    try:
        heading = locate(m.group(1), int(m.group(2))).heading
    except ValueError:
        return ""
    heading = re.sub(r"^(?:[\dIVX]+[.)]?\s*|[A-Z]\)\s*|[A-Z]\)\.\d+\.\s*)+", "", heading).strip()
    return heading[:1].upper() + heading[1:].lower() if heading.isupper() else heading[:1].upper() + heading[1:]


def kind_label(t: Mapping[str, str], game_id: str, kind: str) -> str:
    """A bet kind in the page's words: the game's own name, else the kind's, else the engine's id (as app.js)."""
    return t.get(f"kind_{game_id}_{kind}") or t.get(f"kind_{kind}") or kind.replace("-", " ")


def _say(t: Mapping[str, str], key: str, **params: Any) -> str:
    text = t.get(key, key)
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text


def _groups(mapping: Mapping[Any, Any]) -> list[tuple[list[str], str]]:
    """{'4': [9, 5], '10': [9, 5], '5': [7, 5]} -> [(['4', '10'], '9:5'), (['5'], '7:5')]: numbers that pay alike."""
    out: dict[str, list[str]] = {}
    for target, value in mapping.items():
        out.setdefault(ratio(value), []).append(str(target))
    return [(targets, r) for r, targets in out.items()]


def _members(value: Any) -> tuple[Any, ...]:
    """A rule's value as the kinds it lists (a list, a dict's keys); () for a switch, a fraction or nothing."""
    return tuple(value) if isinstance(value, (list, tuple, dict, set, frozenset)) else ()


def _mapping(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def spot_pays(game: Any, jurisdiction: str) -> dict[str, str]:
    """What each spot of the cloth pays, 'kind' or 'kind|target' -> '9:5', read from the rules (the craps cloth
    and the punto y banca spots print it)."""
    rules = game.rules_for(jurisdiction)
    values = {name: value for name, value, _ in rules.items()}
    out: dict[str, str] = {k.kind: k.pays for k in game.kinds() if k.pays and RATIO.match(k.pays)}
    for kind in _members(values.get("even_money")):
        if isinstance(kind, str):
            out[kind] = "1:1"
    for kind, value in _mapping(values.get("payouts")).items():
        if isinstance(value, PAYOUT):
            out[str(kind)] = ratio(value)
    for kind, value in _mapping(values.get("one_roll_payouts")).items():
        out[kind] = ratio(value)
    for name, kind in (("hardway_payouts", "hardway"), ("place_payouts", "place"),
                       ("place_to_lose_payouts", "place-to-lose"), ("odds_payouts", "odds")):
        for target, value in _mapping(values.get(name)).items():
            out[f"{kind}|{target}"] = ratio(value)
    if "banker_commission" in values:      # punto y banca: the bank's payout less the house's deduction
        commission = Fraction(values["banker_commission"] or 0)
        six = Fraction(values.get("banker_six_deduction") or 0)
        out["banker"] = "1:1" + (f" −{float(commission * 100):g} %" if commission else "") + (
            f" (6: {ratio(1 - six)})" if six else "")
    if isinstance(values.get("tie_payout"), PAYOUT) and not isinstance(values.get("tie_payout"), bool):
        out["tie"] = ratio(values["tie_payout"])
    return out


def _pays(game: Any, jurisdiction: str, t: Mapping[str, str]) -> list[Row]:
    rules = game.rules_for(jurisdiction)
    values = {name: (value, source) for name, value, source in rules.items()}
    src = lambda name: values.get(name, (None, ""))[1]          # noqa: E731
    kinds = [k.kind for k in game.kinds()]
    offered = values.get("kinds", (kinds, ""))[0]
    offered = [k for k in kinds if not isinstance(offered, (list, tuple)) or k in offered]
    simple = spot_pays(game, jurisdiction)
    rows: list[Row] = []

    def row(kind: str, text: str, source: str) -> None:
        cite, bare = article(source, jurisdiction)
        rows.append(Row(kind_label(t, game.id, kind), text, cite, bare))

    for kind in offered:
        label_key = kind
        if game.id == "punto-banca" and kind == "banker":
            commission = Fraction(values.get("banker_commission", ("0", ""))[0] or 0)
            six = Fraction(values.get("banker_six_deduction", ("0", ""))[0] or 0)
            text = _say(t, "rp_banker_commission", pct=f"{float(commission * 100):g}") if commission else "1:1"
            if six:
                text += _say(t, "rp_banker_six", ratio=ratio(1 - six) if six != Fraction(1, 2) else "1:2")
            row(kind, text, src("banker_commission"))
            continue
        grouped = [(name, values[name][0]) for name in ("hardway_payouts", "place_payouts", "place_to_lose_payouts",
                                                         "odds_payouts") if name in values
                   and {"hardway_payouts": "hardway", "place_payouts": "place", "place_to_lose_payouts": "place-to-lose",
                        "odds_payouts": "odds"}[name] == label_key]
        if grouped:
            name, mapping = grouped[0]
            text = "; ".join(_say(t, "rp_on_numbers", ratio=r, numbers=", ".join(ts)) for ts, r in _groups(mapping))
            row(kind, text, src(name))
            continue
        if kind == "field" and _members(values.get("field_double", ((), ""))[0]):
            doubles = values["field_double"][0]
            text = _say(t, "rp_field", ratio=simple.get("field", "1:1"), numbers=", ".join(map(str, doubles)))
            row(kind, text, src("field_double"))
            continue
        if kind in simple:
            source = next((src(n) for n in ("payouts", "one_roll_payouts", "even_money", "tie_payout") if n in values
                           and (kind in _members(values[n][0]) or (n == "tie_payout" and kind == "tie"))), src("kinds"))
            row(kind, _say(t, "rp_pays", ratio=simple[kind]), source)
    if isinstance(values.get("blackjack_pays", (None,))[0], PAYOUT):
        cite, bare = article(src("blackjack_pays"), jurisdiction)
        rows.append(Row(t.get("rp_blackjack", "Black Jack"), _say(t, "rp_pays", ratio=ratio(values["blackjack_pays"][0])), cite, bare))
    if isinstance(values.get("insurance_pays", (None,))[0], PAYOUT) and values["insurance_pays"][0] is not True:
        cite, bare = article(src("insurance_pays"), jurisdiction)
        rows.append(Row(t.get("verb_insure", "insure"), _say(t, "rp_pays", ratio=ratio(values["insurance_pays"][0])), cite, bare))
    return rows


def _limits(game: Any, jurisdiction: str, layout: list[dict[str, Any]], t: Mapping[str, str], money: Any) -> list[Row]:
    rules = game.rules_for(jurisdiction)
    source = next((s for n, _, s in rules.items() if n in ("maxima", "maximum_multiples", "simple_maximum", "maxima_override")),
                  "")
    cite, bare = article(source, jurisdiction)
    rows = []
    repeated = {k["kind"] for k in layout if sum(1 for x in layout if x["kind"] == k["kind"]) > 1}
    for k in layout:
        lo, hi = k.get("minimum"), k.get("maximum")
        if lo is None and hi is None:
            continue
        what = kind_label(t, game.id, k["kind"])
        if k["kind"] in repeated and k.get("targets"):
            what += " (" + ", ".join("-".join(map(str, tg)) if isinstance(tg, list) else str(tg) for tg in k["targets"]) + ")"
        text = _say(t, "rp_limit", minimum=money(lo or 0), maximum=money(hi)) if hi else _say(t, "rp_limit_min", minimum=money(lo or 0))
        rows.append(Row(what, text, cite, bare))
    return rows


def _blinds(game: Any, jurisdiction: str, table: dict[str, Any], t: Mapping[str, str], money: Any) -> list[Row]:
    from tapete.games.poker.circle import VARIANTS

    if game.id not in VARIANTS:
        return []
    try:
        cfg = game.open(jurisdiction, dict(table)).config
    except Exception:          # noqa: BLE001 — a table the engine refuses has no panel line, the page says why
        return []
    rules = game.rules_for(jurisdiction)
    cite, bare = article(rules.sources.get("forced", ""), jurisdiction)
    if cfg.forced == "blinds":
        return [Row(t["rp_blinds"], _say(t, "rp_blinds_text", small=money(cfg.minimum // 2), big=money(cfg.minimum)), cite, bare)]
    return [Row(t["rp_ante"], _say(t, "rp_ante_text", ante=money(cfg.ante)), cite, bare)]


def _decisions(game: Any, jurisdiction: str, t: Mapping[str, str]) -> list[Row]:
    rules = game.rules_for(jurisdiction)
    values = {name: (value, source) for name, value, source in rules.items()}
    rows = []
    for verb in game.verbs():
        meaning = t.get(f"rv_{verb}")
        if meaning is None:
            continue            # a staff or circle-poker verb: the decision buttons say it in full
        name = VERB_FIELD.get(verb)
        value, source = values.get(name, (True, "")) if name else (True, "")
        if value in (False, None, "none") or (verb in ("prison", "half") and value != "choice"):
            continue
        cite, bare = article(source, jurisdiction)
        rows.append(Row(t.get(f"verb_{verb}", verb), meaning, cite, bare))
    return rows


def _timing(game: Any, jurisdiction: str, spec: Any, t: Mapping[str, str]) -> list[Row]:
    rows = []
    timing = spec.timing
    if spec.auto:
        rows.append(Row(t["rp_time_bets"], _say(t, "rp_time_bets_text", n=round(timing.bets))))
    else:
        rows.append(Row(t["rp_time_bets"], t["rp_time_croupier"]))
    default = t.get(f"rp_default_{game.id}") or (t.get("rp_default_roulette") if game.id.startswith("roulette") else None)
    if default:
        source = ""        # the engine's defaults (docs/server.md: stand, decline insurance) cite no article
        if game.id.startswith("roulette"):
            rules = game.rules_for(jurisdiction)
            if rules.sources.get("zero_on_simple") is None or getattr(rules, "zero_on_simple", None) != "choice":
                return rows
            source = rules.sources["zero_on_simple"]
        cite, bare = article(source, jurisdiction)
        when = (_say(t, "rp_time_act_text", n=round(timing.act)) if spec.auto else t["rp_time_act_live"]) if game.uses_shoe else ""
        rows.append(Row(t["rp_time_act"], f"{when} {default}".strip(), cite, bare))
    return rows


def build(game: Any, jurisdiction: str, spec: Any, layout: list[dict[str, Any]], t: Mapping[str, str], money: Any) -> Panel:
    """The panel of one table in the page's language (`t`: its strings; `money`: cents -> text)."""
    rules = game.rules_for(jurisdiction)
    first = next((s for _, _, s in rules.items() if CITATION.search(own_citations(s, jurisdiction) if s else "")), "")
    from tapete.games.poker.circle import VARIANTS

    return Panel(
        title=t["rules_title"],
        pays=_pays(game, jurisdiction, t),
        limits=_limits(game, jurisdiction, layout, t, money),
        blinds=_blinds(game, jurisdiction, dict(spec.table), t, money),
        decisions=_decisions(game, jurisdiction, t),
        timing=[] if game.id in VARIANTS else _timing(game, jurisdiction, spec, t),
        catalog=catalog_heading(first, jurisdiction),
    )
