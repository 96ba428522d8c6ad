"""The terminal's voice: every sentence `tapete play` prints comes from the message catalog in the session's one
language, amounts in euros in that language's format, prompts with their choices visible, answers outside the
choices asked again, and engine errors told to the player by their code (never the engine's own English text,
bet ids or cents)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape

from tapete import i18n
from tapete.core.errors import TapeteError
from tapete.i18n import Money


class Raw(str):
    """A value that is Rich markup on purpose (coloured card suits): put into a message unescaped."""


class Quit(Exception):
    """The player typed quit (or closed the input) at a question that does not act for him."""


QUIT_WORDS = ("quit", "exit", "q", "salir")


class Voice:
    """Speaks one language to one player: `t` renders, `say` prints, `ask` asks until the answer is a choice."""

    def __init__(self, lang: str, console: Console, read: Callable[[str], str]) -> None:
        self.lang = lang
        self.console = console
        self._read = read

    def money(self, cents: int | Fraction) -> str:
        return i18n.money(self.lang, cents)

    def t(self, key: str, **params: Any) -> str:
        """The message, with Rich markup in the catalog kept and every value escaped (a `[` in a value is text)."""
        safe = {k: v if isinstance(v, Money | Raw) else escape(str(v)) for k, v in params.items()}
        return i18n.render(self.lang, key, **safe)

    def plain(self, key: str, **params: Any) -> str:
        """The message without escaping, for Rich `Text` objects and table cells that take no markup."""
        return i18n.render(self.lang, key, **params)

    def say(self, key: str, style: str | None = None, **params: Any) -> None:
        text = self.t(key, **params)
        self.console.print(f"[{style}]{text}[/{style}]" if style else text)

    def warn(self, key: str, **params: Any) -> None:
        self.say(key, "red", **params)

    def read(self, key: str, **params: Any) -> str:
        """A free answer (a bet line, a decision); EOF or Ctrl-C reads as quit."""
        try:
            return self._read(self.t(key, **params)).strip()
        except (EOFError, KeyboardInterrupt):
            return "quit"

    def ask(self, key: str, options: Sequence[str], default: str | None = None, **params: Any) -> str:
        """A question whose answers are `options` (shown in the message's `{choices}` as `[a/b]`, escaped so Rich
        keeps them); anything else is asked again. Returns the option; `Quit` when the player types quit."""
        hint = self.choices(options)
        while True:
            answer = self._ask_once(key, hint, params)
            low = answer.lower()
            if not low and default is not None:
                return default
            if low in options:
                return low
            if low in QUIT_WORDS:
                raise Quit
            self.console.print(f"[yellow]{i18n.render(self.lang, 'ask.again', choices=hint)}[/yellow]")

    def _ask_once(self, key: str, hint: str, params: dict[str, Any]) -> str:
        safe = {k: v if isinstance(v, Money | Raw) else escape(str(v)) for k, v in params.items()}
        try:
            return self._read(i18n.render(self.lang, key, choices=hint, **safe)).strip()
        except (EOFError, KeyboardInterrupt):
            return "quit"

    @staticmethod
    def choices(options: Sequence[str]) -> str:
        """The `[a/b]` hint of a prompt, escaped for Rich markup (Rich would take `[p/h]` for a style and drop it)."""
        return escape("[" + "/".join(options) + "]")

    def error(self, exc: TapeteError, *, minimum: int | None = None, maximum: int | None = None) -> None:
        """An engine refusal told as a sentence: by its code; the table's limit in euros where the caller knows it."""
        self.console.print(f"[red]{self.error_text(exc, minimum=minimum, maximum=maximum)}[/red]")

    def error_text(self, exc: TapeteError, *, minimum: int | None = None, maximum: int | None = None) -> str:
        if exc.code == "over-maximum" and maximum is not None:
            return self.t("error.over-maximum.amount", maximum=Money(maximum))
        if exc.code == "under-minimum" and minimum is not None:
            return self.t("error.under-minimum.amount", minimum=Money(minimum))
        try:
            return self.t(f"error.{exc.code}")
        except KeyError:
            return self.t("error.other")


CURRENT: list[Voice] = []


def voice(console: Console | None = None, read: Callable[[str], str] | None = None) -> Voice:
    """The voice of the session `play_game` opened. A table called directly with its own console (a test, another
    front end) gets an English voice on that console and reader; called outside any session, English on stdout."""
    if CURRENT and (console is None or CURRENT[-1].console is console):
        return CURRENT[-1]
    if console is not None:
        return Voice("en", console, read or console.input)
    console = Console()
    CURRENT.insert(0, Voice("en", console, console.input))
    return CURRENT[-1]


def limits(game: Any, state: Any, kind: str) -> tuple[int | None, int | None]:
    """The table's minimum and maximum for a bet of `kind` now, from the engine's legal actions."""
    try:
        for a in game.legal_actions(state):
            if a.verb == "bet" and a.kind == kind:
                return a.minimum, a.maximum
    except TapeteError:
        pass
    return None, None
