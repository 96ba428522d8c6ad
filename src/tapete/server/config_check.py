"""The casino file checked as a whole (issue 29): `tapete config check FILE`, and `tapete serve` before it starts.

Every problem is one line — the key path and what is expected, in the project's words (never pydantic's) — and
all of them are reported at once, not the first only:

    tables[2].game: "ruleta" is not a game of tapete (tapete games lists them)
    users[4].tables[0]: "dados-9" is not a table of this casino (its tables: ruleta-1, blackjack-1)

The shape (keys, types, ranges) comes from the models in config.py; the substance from the engine (each table is
opened with its game in its jurisdiction), the table adapters (a live table of a family a croupier cannot deal),
the staff's tables, each table's float against the largest payout one maximum bet can win, and the password
policy of `tapete users`. Warnings, not refusals: a carousel (jackpot meter) whose configured share breaks its
text or the jurisdiction's minimum return (analysis/jackpots.py).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tapete.core.errors import TapeteError

WORDS = {   # pydantic's error types -> what is expected, in the project's words
    "missing": "is required",
    "extra_forbidden": "is not a key of the casino file (docs/server.md lists them)",
    "string_type": "is text (in quotes)",
    "int_type": "is a whole number",
    "int_parsing": "is a whole number",
    "float_type": "is a number",
    "float_parsing": "is a number",
    "bool_type": "is true or false",
    "bool_parsing": "is true or false",
    "list_type": "is a list ([...])",
    "dict_type": "is a table ({...})",
    "model_type": "is a table ({...})",
    "string_pattern_mismatch": "has characters it may not have",
}


def location(loc: tuple[Any, ...]) -> str:
    """('tables', 2, 'game') -> 'tables[2].game'."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(the file)"


def expected(error: dict[str, Any]) -> str:
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        sign = {"greater_than_equal": "at least", "greater_than": "more than", "less_than_equal": "at most",
                "less_than": "less than"}[kind]
        bound = next(iter(ctx.values()), "")
        return f"is {sign} {bound} (got {error.get('input')!r})"
    if kind == "literal_error":
        return f"is one of {ctx.get('expected', '')} (got {error.get('input')!r})"
    if kind == "string_too_short":
        return f"has at least {ctx.get('min_length')} characters"
    if kind == "string_too_long":
        return f"has at most {ctx.get('max_length')} characters"
    if kind == "value_error":
        return str(ctx.get("error", error.get("msg", ""))).removeprefix("Value error, ")
    if kind in WORDS:
        got = error.get("input")
        return WORDS[kind] + ("" if kind in ("missing", "extra_forbidden") or isinstance(got, dict) else f" (got {got!r})")
    return str(error.get("msg", kind))


def shape_problems(exc: ValidationError) -> list[str]:
    lines = []
    for error in exc.errors():
        loc = tuple(p for p in error.get("loc", ()) if not (isinstance(p, str) and p.startswith("function-")))
        lines.append(f"{location(loc)}: {expected(error)}")
    return lines


def check_data(data: dict[str, Any]) -> list[str]:
    """Every problem of a parsed casino file, one line each (empty: the file is good)."""
    from tapete.server.config import CasinoConfig

    try:
        config = CasinoConfig.model_validate(data)
    except ValidationError as exc:
        return shape_problems(exc)
    return substance_problems(config)


def substance_problems(config: Any) -> list[str]:
    from tapete.catalog import all_games, get_game
    from tapete.server.accounts import PASSWORD_POLICY, check_password
    from tapete.server.config import check_table_values
    from tapete.server.tables.adapters import adapter_for

    problems: list[str] = []
    known = {g.id for g in all_games()}
    ids = [t.id for t in config.tables]
    for i, t in enumerate(config.tables):
        where = f"tables[{i}] (id {t.id!r})"
        if t.game not in known:
            problems.append(f"{where}.game: {t.game!r} is not a game of tapete (`tapete games` lists them)")
            continue
        game = get_game(t.game)
        jurisdiction = config.jurisdiction_of(t)
        try:
            check_table_values(game, t.table)
            game.rules_for(jurisdiction)
            game.open(jurisdiction, dict(t.table), *([[]] if game.uses_shoe else []))
        except TapeteError as exc:
            key = "jurisdiction" if exc.code in ("unknown-jurisdiction", "no-such-jurisdiction") else "table"
            problems.append(f"{where}.{key}: {exc.message}")
            continue
        if t.source == "croupier":
            try:
                adapter_for(game).check_live(where)
            except TapeteError as exc:
                problems.append(exc.message)
        need = float_needed(game, jurisdiction, t.table)
        if need is not None and t.float < need:
            problems.append(f"{where}.float: at least {need} cents, the most one maximum bet can win "
                            f"(got {t.float})")
    for i, u in enumerate(config.users):
        for j, table in enumerate(u.tables or ()):
            if table not in ids:
                problems.append(f"users[{i}] ({u.username}).tables[{j}]: {table!r} is not a table of this casino "
                                f"(its tables: {', '.join(ids) or 'none'})")
        if u.password:
            try:
                check_password(u.password, u.username)
            except TapeteError:
                problems.append(f"users[{i}].password: {PASSWORD_POLICY} ({u.username})")
    return problems


def carousel_warnings(config: Any) -> list[str]:
    """Each table whose carousel (a jackpot meter the catalog describes) breaks its text or its minimum return, as
    analysis/jackpots.py models it (issue 27): reported, not refused — the meter's share is the casino's to set."""
    from fractions import Fraction

    from tapete.analysis.jackpots import check_carousel, texts

    carousels = texts()
    lines = []
    for i, t in enumerate(config.tables):
        jurisdiction = config.jurisdiction_of(t)
        if (t.game, jurisdiction) not in carousels:
            continue
        rate = t.table.get("jackpot-contribution")
        text_share = carousels[(t.game, jurisdiction)].share
        if rate is None:             # the engine's default: the text's share where it sets one, else nothing
            share = text_share if text_share is not None else Fraction(0)
        else:
            share = Fraction(str(rate)) / 100
        for problem in check_carousel(t.game, jurisdiction, share=share):
            lines.append(f"tables[{i}] (id {t.id!r}).table.jackpot-contribution: {problem}")
    return lines


def float_needed(game: Any, jurisdiction: str, table: dict[str, Any]) -> int | None:
    """The most one bet at its table maximum can win (cents), where the rules name each kind's payout (the
    wheels); None elsewhere (a card game's float is the cage's judgement, not a rule's)."""
    from tapete.server.http.views import layout
    from tapete.server.tables.adapters import adapter_for

    pays = adapter_for(game).payouts(jurisdiction)
    best = 0
    for kind in layout(game, jurisdiction, dict(table)):
        top, ratio = kind.get("maximum"), pays.get(kind["kind"])
        if isinstance(top, int) and ratio is not None:
            best = max(best, int(top * ratio))
    return best or None


def check_file_warnings(path: str | Path) -> list[str]:
    """What a good casino file configures that the texts' models say breaks (the carousels): warnings."""
    from tapete.server.config import CasinoConfig

    try:
        return carousel_warnings(CasinoConfig.model_validate(tomllib.loads(Path(path).read_text(encoding="utf-8"))))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValidationError):
        return []


def check_file(path: str | Path) -> list[str]:
    """Read a casino file and check it whole: one line per problem (a file that cannot be read: one line)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        return [f"{path}: cannot be read ({exc.strerror})"]
    except UnicodeDecodeError:
        return [f"{path}: is not UTF-8 text"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [f"{path}: is not TOML: {exc}"]
    return check_data(data)
