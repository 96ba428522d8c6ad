"""The shared `tapete play` bet loop (`tapete.terminal.session`) changed nothing a player sees: scripted, seeded
sessions of the tables that use it (boule, wheel of fortune, roulette, trente et quarante, craps, Monte o banca,
punto y banca; Casino Monte for the shared banner), in Spanish and English, print byte for byte the screens recorded
from the code before the loop was written once (`tests/terminal/golden/play-*.txt`).

A seeded session is deterministic (the table CSPRNG from the seed, no clock on screen), so the whole screen is
compared. To record the goldens again (only when a screen is meant to change): `TAPETE_REGOLD=1 pytest <this file>`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

from tapete.catalog import get_game
from tapete.terminal import play_game

GOLDEN = Path(__file__).parent / "golden"
SEED = f"{7:064x}"
SEEDS = {"trente-quarante": f"{4:064x}", "roulette": f"{5:064x}"}      # by session name: 31 after 31; zero first

# (table, jurisdiction) -> what the player types: bets, a bad line, an over-balance and an under-minimum bet, the
# listing, help, a deal or spin, more bets left riding at quit (taken back). Spanish and English words alike.
SCRIPTS: dict[tuple[str, str], list[str]] = {
    ("boule", "ES"): ["ayuda", "apuestas", "", "7 5", "rojo 5", "par 2", "zzz 5", "7 9999", "7 0.5", "bets",
                      "retirar", "5 3", "negro 4", "falta 2", "roll", "r", "pasa 1", "tirar", "spin", "9 1", "salir"],
    ("boule", "ES-IB"): ["help", "4 10", "impar 3", "clear", "high 6", "", "bets", "low 1", "quit"],
    ("wheel-of-fortune", "ES-AN"): ["ayuda", "", "24 5", "jr 1", "negro 2", "zz", "2 99999", "15 0.1", "apuestas",
                                    "s", "girar", "7 3", "4 2", "spin", "retirar", "2 5", "", "jb 1", "salir"],
    ("wheel-of-fortune", "ES-IB"): ["help", "1 5", "24 1", "red 2", "", "bets", "2 2", "quit"],
    ("wheel-of-fortune", "ES-GA"): ["24 2", "15 2", "", "figura2 1", "q"],
    ("monte-banca", "ES-AN"): ["ayuda", "apuestas", "camo 1 5", "vista 2 3", "cartas 1 2 5", "cartas 1+4 2+3 5",
                               "camo 1", "camo x 5", "camo 1 999999", "camo 1 0", "bets", "", "anti 3 2", "d", "",
                               "deal", "salto 2 4", "descubrir", "", "viudo 1 2", "apuestas", "salir"],
    ("punto-banca", "ES"): ["ayuda", "apuestas", "punto 10", "banca 5", "empate 1", "zz 5", "punto x", "punto 999999",
                            "punto 0.5", "bets", "", "d", "banker 3", "player 2", "cartas", "repartir", "tie 1",
                            "deal", "p 4", "salir"],
    ("punto-banca", "ES-GA"): ["help", "igualdad 2", "b 7", "", "bets", "t 1", "quit"],
    ("casino-monte", "ES-AN"): ["10 2", "10", "5", "x", "1 2 3", "99999", "0.5", "20 1", "salir"],
}
# more sessions of one table, named: left in the second round with bets riding; the input ended (EOF reads as quit)
MORE: dict[str, tuple[str, str, list[str]]] = {
    "monte-banca-segundas": ("monte-banca", "ES-AN", ["camo 1 5", "viudo 2 3", "", "anti 1 2", "salto 2 3", "apuestas", "salir"]),
    "boule-eof": ("boule", "ES-GA", ["7 5", "", "impar 2"]),
    "wheel-of-fortune-eof": ("wheel-of-fortune", "ES-AN", ["24 5", "jr 1"]),
    "punto-banca-eof": ("punto-banca", "ES-AN", ["punto 10", "", "banca 5"]),
    # trente et quarante: the seed's first coup is 31 after 31 (HALF: the half-back answer in the session language)
    "trente-quarante-ES": ("trente-quarante", "ES", [
        "ayuda", "apuestas", "", "negro 10 seguro", "rojo 5", "zz 5", "negro 99999", "rojo 0.5", "color 2", "bets", "",
        "HALF", "p", "negro 4 asegurada", "inverso 3", "deal", "negro 4 insured", "c 3", "bets", "deal", "rojo 2",
        "repartir", "r 1", "salir"]),
    "trente-quarante-prison": ("trente-quarante", "ES", ["rojo 5", "color 2", "", "p", "p", "salir"]),
    "trente-quarante-quit-asked": ("trente-quarante", "ES", ["rojo 5", "n 1", "", "salir"]),
    # craps: the shooter must bet the line; a refused bet keeps its id free; bets taken down; the dice refused
    "craps-ES": ("craps", "ES", [
        "ayuda", "apuestas", "", "field 5", "paso", "pass 10", "zz 5", "pass 99999", "odds 6 10", "hard 8 0.5",
        "come 5", "bets", "", "place 6 12", "hard 8 5", "retirar b9", "remove b3", "down b4", "odds 10", "bets", "roll",
        "r", "tirar", "yo 5", "", "dp 5", "", "refuse", "", "salir"]),
    "craps-ES-IB": ("craps", "ES-IB", ["help", "refuse", "pass 5", "", "", "", "seven 2", "", "quit"]),
    # roulette: the seed's first spin is 0
    "roulette-french-ES": ("roulette-french", "ES", [
        "ayuda", "apuestas", "", "rojo 10", "17 5", "docena 4 5", "17 4000", "x 5", "17 0.5", "split 17 20 2",
        "tiers 1", "neighbours 17 1", "corner 17 1", "bets", "retirar", "rojo 10", "par 4", "negro 6", "3 1", "",
        "HALF", "p", "x", "p", "apuestas", "", "17 1", "s", "calle 34 1", "girar", "salir"]),
    "roulette-french-quit-asked": ("roulette-french", "ES-GA", ["rojo 10", "", "salir"]),
    "roulette-french-prison": ("roulette-french", "ES-IB", ["rojo 10", "5 1", "", "p", "quit"]),
    "roulette-french-short-ES-AN": ("roulette-french-short", "ES-AN", ["help", "17 5", "rojo 5", "bets", "", "", "16 2",
                                                                       "quit"]),
    "roulette-american-ES": ("roulette-american", "ES", [
        "help", "colour 2", "colour x", "colour 999999", "17 3x", "rojo 10", "17 999x", "bets", "", "", "0 2", "00 1",
        "spin", "quit"]),
}
SESSIONS = {f"{g}-{j}": (g, j, lines) for (g, j), lines in SCRIPTS.items()} | MORE


class Screen:
    """A console and a reader fed the script: the prompts as the player sees them, each answer shown after it."""

    def __init__(self, script: list[str]) -> None:
        self.buffer = io.StringIO()
        self.console = Console(file=self.buffer, width=120, color_system=None)
        self.answers = list(script)

    def read(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        self.console.print(f"<<{answer}>>", markup=False)
        return answer


def transcript(name: str, lang: str) -> str:
    game_id, jurisdiction, script = SESSIONS[name]
    screen = Screen([{"HALF": "h" if lang == "en" else "m"}.get(line, line) for line in script])
    play_game(get_game(game_id), jurisdiction, minimum=100, balance=30_000,
              seed=next((seed for prefix, seed in SEEDS.items() if name.startswith(prefix)), SEED), console=screen.console,
              read=screen.read, lang=lang)
    return screen.buffer.getvalue()


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_scripted_session_prints_the_recorded_screen(name: str, lang: str) -> None:
    path = GOLDEN / f"play-{name}-{lang}.txt"
    got = transcript(name, lang)
    if os.environ.get("TAPETE_REGOLD"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "said"), [
    ("boule-ES", ("b1: number 7", "Bets taken back", "You only have", "at least €1.00", "wins, you receive",
                  ": loses", "You leave with €316.00")),
    ("wheel-of-fortune-ES-AN", ("b1:", "Bets taken back", "You only have", ": loses", "You leave with")),
    ("wheel-of-fortune-ES-GA", ("wins, you receive",)),
    ("monte-banca-segundas", ("(segundas (second round))", "You leave with €292.00")),
    ("punto-banca-ES", ("There is no «empate» bet in ES", "You only have", "wins, you receive", "You leave with")),
    ("trente-quarante-ES", ("31 after 31", "Half back", "You only have", "You leave with")),
    ("trente-quarante-prison", ("stays in prison", "stays on the table")),
    ("roulette-french-ES", ("Zero: your", "Half back", "stays in prison", "Bets taken back", "You leave with")),
    ("roulette-french-quit-asked", ("stays on the table", "You leave with €290.00")),
    ("roulette-american-ES", ("colour chips", "You leave with")),
    ("craps-ES", ("The shooter must bet", "You pass the dice", "b5: Suerte asociada", "taken down", "stay in play")),
])
def test_the_scripts_reach_the_branches_of_the_loop(name: str, said: tuple[str, ...]) -> None:
    """The goldens bite: the sessions place, refuse, list, settle and take back bets (not just help and quit)."""
    text = (GOLDEN / f"play-{name}-en.txt").read_text(encoding="utf-8")
    for words in said:
        assert words in text, words
