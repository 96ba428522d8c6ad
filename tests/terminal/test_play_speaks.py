"""`tapete play` speaks to a player (issue 16 point 6): one language per session, euros in the locale's format,
whole sentences, prompts with their choices, bad answers asked again, no ids, quit never acts."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tapete.catalog import all_games, get_game
from tapete.cli import app
from tapete.terminal import PLAYERS, load_players, play_game

ZERO_SEED = f"{5:064x}"          # the first spin of this seed is 0
SPLIT_SEED = f"{3:064x}"         # blackjack: the first hand is J♣ 10♣, a pair to split
HOLDEM_SEED = f"{5:064x}"
# words that give English away in a Spanish session (lower case, whole words)
SPANISH = ("apuesta", "apuestas", "saldo", "mesa", "gana", "pierde", "tus", "fichas", "te", "retiras", "crupier",
           "casilla", "bote", "mano", "tienes", "quedan", "escribe", "ayuda", "salir", "golpe")
ENGLISH = ("the", "you", "your", "bet", "bets", "wins", "loses", "balance", "leave", "table", "zero", "prison",
           "half", "box", "dealer", "chips", "pot", "board", "calls", "raises", "checks", "folds", "stake", "side")


def session(game: str, lang: str, lines: list[str], *, jurisdiction: str = "ES", seed: str = ZERO_SEED,
            balance: int = 50_000) -> tuple[str, list[str]]:
    """The screen of a scripted session (prompts rendered as the player sees them) and the prompts asked."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    feed = iter(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        console.print(prompt, end="")
        prompts.append(prompt)
        try:
            answer = next(feed)
        except StopIteration:
            raise EOFError from None
        console.print(f"⟦{answer}⟧", markup=False)      # what the player typed, marked so checks skip it
        return answer

    play_game(get_game(game), jurisdiction, minimum=100, balance=balance, seed=seed, console=console, read=read,
              lang=lang)
    return out.getvalue(), prompts


def typed(screen: str) -> str:
    """The screen less what the player typed (the lines after a prompt), so the checks read the table's words."""
    return re.sub(r"⟦[^⟧]*⟧", "", screen)


def assert_player_facing(screen: str, lang: str, allowed: tuple[str, ...] = ()) -> None:
    """`allowed`: the regulation's own names for things (craps' «Right Bet» in the Spanish catalog)."""
    text = typed(screen)
    for name in allowed:
        text = text.replace(name, "").replace(name.upper(), "")
    assert "{" not in text and "}" not in text
    assert not re.search(r"\bb\d+\b", text), "a bet id shown unasked"
    assert "Traceback" not in text
    if lang == "es":
        assert not re.search(r"\d\.\d\d €|€\d", text), "an English amount in a Spanish session"
        words = set(re.findall(r"[a-záéíóúñü]+", text.lower()))
        assert not words & set(ENGLISH), words & set(ENGLISH)
    else:
        assert not re.search(r"\d,\d\d €", text), "a Spanish amount in an English session"
        words = set(re.findall(r"[a-záéíóúñü]+", text.lower()))
        assert not words & set(SPANISH), words & set(SPANISH)


ROULETTE = ["rojo 10", "17 5", "docena 4 5", "17 4000", "", "x", "m", ""]
ROULETTE_EN = ["red 10", "17 5", "dozen 4 5", "17 4000", "", "x", "h", ""]


@pytest.mark.parametrize(("lang", "lines"), [("es", ROULETTE), ("en", ROULETTE_EN)])
def test_roulette_zero_prompt_shows_choices_and_asks_again(lang: str, lines: list[str]) -> None:
    screen, prompts = session("roulette-french", lang, lines)
    assert_player_facing(screen, lang)
    zero = [p for p in prompts if "[bold]p[/bold]" in p.lower() or "[bold]P[/bold]" in p]
    assert len(zero) == 2                                  # 'x' was asked again, not taken as prison
    assert ("[p/m]" if lang == "es" else "[p/h]") in screen   # the hint survives Rich markup
    assert ("Te devuelven la mitad: 5,00 €" if lang == "es" else "Half back: €5.00") in screen
    assert ("Responde una de estas opciones" if lang == "es" else "Please answer one of") in screen


def test_roulette_amounts_in_euros_errors_as_sentences() -> None:
    screen, _ = session("roulette-french", "en", ["17 40", "dozen 4 5", "b99", "quit"])
    assert "That stake is over the table's maximum: €30.00 at most." in screen      # not '4000 … 3000'
    assert "does not fit the cloth" in screen and "'on'" not in screen
    assert "act names no bet" not in screen and "«b99» is not an amount" in screen
    screen, _ = session("roulette-french", "es", ["17 40", "quit"])
    assert "como mucho 30,00 €" in screen


def test_bets_command_shows_ids_only_when_asked() -> None:
    screen, _ = session("roulette-french", "en", ["17 5", "bets", "quit"])
    assert "b1: straight up 17 €5.00 (riding)" in screen


@pytest.mark.parametrize("lang", ["es", "en"])
def test_blackjack_balance_drops_at_once_after_a_split(lang: str) -> None:
    screen, _ = session("blackjack", lang, ["10", "", "p", "s", "s", "quit"], seed=SPLIT_SEED)
    assert_player_facing(screen, lang)
    after_split = "Saldo: 480,00 €" if lang == "es" else "Balance: €480.00"
    assert after_split in screen                      # 500 - 10 - 10 for the split hand, before settlement


def test_blackjack_balance_drops_at_once_after_a_double() -> None:
    # seed 5: box 2 is 3-7 (10), box 3 still to play after it doubles
    screen, _ = session("blackjack", "en", ["10", "10 box 2", "10 box 3", "", "s", "d", "quit", "y"],
                        seed=f"{5:064x}")
    assert "€10.00 more on the table. Balance: €460.00." in screen          # 500 - 3 x 10 - 10 at once
    assert "balance €460.00" in screen and "You leave with €460.00" in screen


def test_blackjack_quit_mid_hand_asks_and_does_not_act() -> None:
    screen, _ = session("blackjack", "en", ["10", "", "quit", "maybe", "n", "quit", "y"], seed=SPLIT_SEED)
    assert "Leave anyway? [y/n]" in screen and "Please answer one of [y/n]" in screen
    assert "Hand abandoned: €10.00 stays on the table." in screen
    assert "stands" not in screen and "You leave with €490.00" in screen


@pytest.mark.parametrize("lang", ["es", "en"])
def test_holdem_quit_mid_hand_never_checks(lang: str) -> None:
    screen, _ = session("holdem", lang, ["quit", "s" if lang == "es" else "y"], jurisdiction="ES-AN",
                        seed=HOLDEM_SEED)
    assert_player_facing(screen, lang)
    assert ("Pasas" if lang == "es" else "You check") not in screen
    assert ("Mano abandonada" if lang == "es" else "Hand abandoned") in screen


def test_holdem_sentences_are_whole_and_amounts_in_euros() -> None:
    screen, _ = session("holdem", "en", ["r 9999", "c", "c", "c", "c", "c", "c", "quit", "y"], jurisdiction="ES-AN",
                        seed=HOLDEM_SEED)
    assert "You can go to €500.00 at most." in screen or "You cannot bet or raise now" in screen
    assert "999900" not in screen and "you's" not in screen and "you raises" not in screen.lower()
    assert re.search(r"(Ana|Luis|Marta) (calls|checks|folds|raises to|bets) ?", screen)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_two_tables_has_a_terminal_table(lang: str) -> None:
    screen, _ = session("baccarat-two-tables", lang, ["1 10", "c", "c", "caballo 5" if lang == "es" else "both 5",
                                                      "c", "c", "quit"])
    assert_player_facing(screen, lang)
    assert ("golpe 1" if lang == "es" else "coup 1") in screen


def test_every_table_game_has_a_terminal_table() -> None:
    players = load_players()
    own_commands = {"bingo", "lototrot", "promotrot"}      # `tapete bingo` / `tapete pool`
    missing = [g.id for g in all_games() if g.id not in players and g.id not in own_commands]
    assert not missing, missing
    assert "baccarat-two-tables" in PLAYERS


@pytest.mark.parametrize("bad", ["-5", "0", "nan", "inf", "1e400"])
def test_a_bad_balance_is_refused(bad: str) -> None:
    result = CliRunner().invoke(app, ["play", "roulette-french", "--balance", bad, "--lang", "en"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "--balance" in result.output


def test_lang_option_and_locale_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from tapete import i18n

    assert i18n.from_locale({"LANG": "en_GB.UTF-8"}) == "en"
    assert i18n.from_locale({"LC_ALL": "es_ES.UTF-8", "LANG": "en_US.UTF-8"}) == "es"
    assert i18n.from_locale({"LANG": "C.UTF-8"}) == "es"
    result = CliRunner().invoke(app, ["play", "roulette-french", "--lang", "xx"])
    assert result.exit_code == 2 and "unknown language" in result.output
    result = CliRunner().invoke(app, ["play", "roulette-french", "--lang", "es"], input="quit\n")
    assert result.exit_code == 0 and "Te retiras con 500,00 €" in result.output


def _jurisdiction(game_id: str) -> str:
    rules = get_game(game_id).rules
    return "ES" if "ES" in rules else sorted(rules)[0]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("game_id", sorted(load_players()))
def test_every_table_speaks_the_session_language(game_id: str, lang: str) -> None:
    """Every terminal table, asked for help and left, in one language: no English in Spanish, no ids, no braces."""
    words = ["ayuda", "salir"] if lang == "es" else ["help", "quit"]
    jurisdiction = _jurisdiction(game_id)
    screen, _ = session(game_id, lang, words, jurisdiction=jurisdiction)
    names = getattr(get_game(game_id).rules_for(jurisdiction), "names", None) or {}
    assert_player_facing(screen, lang, allowed=tuple(sorted(names.values(), key=len, reverse=True)))
    assert ("Te retiras con" if lang == "es" else "You leave with") in screen


PLAYS = {   # a few rounds of each table, typed the Spanish way
    "punto-banca": ["punto 10", "", "banca 5", "", "apuestas", "salir"],
    "chemin-de-fer": ["", "5", "c", "", "", "salir"],
    "craps": ["pass 10", "", "", "", "apuestas", "salir"],
    "boule": ["7 5", "rojo 5", "", "salir"],
    "wheel-of-fortune": ["24 5", "jr 1", "", "salir"],
    "trente-quarante": ["negro 10", "", "rojo 5", "", "salir"],
    "monte-banca": ["camo 1 5", "cartas 1 2 5", "", "", "salir"],
    "casino-monte": ["10 2", "10", "salir"],
    "poker-sin-descarte": ["10", "", "voy", "salir"],
    "trijoker": ["5", "", "m", "r", "salir"],
    "tripoker": ["ante 10", "fortuna 5", "", "apostar", "salir"],
    "pai-gow": ["10", "", "casa", "salir"],
    "omaha": ["c", "c", "c", "c", "c", "salir", "s"],
    "baccarat-two-tables": ["1 10", "c", "caballo 5", "c", "salir"],
}


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("game_id", sorted(PLAYS))
def test_a_few_rounds_stay_in_the_session_language(game_id: str, lang: str) -> None:
    """The same typed lines (the tables take Spanish and English words alike) read back in one language."""
    jurisdiction = _jurisdiction(game_id)
    lines = [{"s": "y"}.get(x, x) if lang == "en" and game_id == "omaha" else x for x in PLAYS[game_id]]
    screen, _ = session(game_id, lang, lines, jurisdiction=jurisdiction)
    names = getattr(get_game(game_id).rules_for(jurisdiction), "names", None) or {}
    assert_player_facing(screen, lang, allowed=tuple(sorted(names.values(), key=len, reverse=True)))
    assert ("Te retiras con" if lang == "es" else "You leave with") in screen


def test_a_bad_seed_is_refused() -> None:
    result = CliRunner().invoke(app, ["play", "roulette-french", "--seed", "zz", "--lang", "en"])
    assert result.exit_code == 2 and "Traceback" not in result.output and "--seed" in result.output


def test_quit_at_the_zero_question_leaves_without_choosing() -> None:
    screen, _ = session("roulette-french", "en", ["red 10", "", "quit"])
    assert "Zero: your red of €10.00" in screen
    assert "stays in prison until the next spin" not in screen and "Half back" not in screen
    assert "Your bet in prison (€10.00) stays on the table" in screen and "You leave with €490.00" in screen


def test_two_tables_a_broken_bank_changes_hands() -> None:
    lines = [x for side in "12" * 4 for x in (f"{side} 40", "n", "n")] + ["", "", "quit"]
    screen, _ = session("baccarat-two-tables", "en", lines, seed=f"{5:064x}")
    assert "The bank is broken: Amparo leaves it." in screen and "Dámaso takes the bank" in screen
    assert "Traceback" not in screen and "You leave with" in screen
