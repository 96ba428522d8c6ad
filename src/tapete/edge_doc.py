"""docs/edge.md, written from the code: the document's schema and methods (the text below), then every house-banked
game in every jurisdiction as a `$ tapete edge GAME -j J` block holding what the command prints.

`python scripts/edge_doc.py` writes it; tests/analysis/test_edge_doc.py regenerates it and fails when the file
differs, so the figures cannot drift from the code. The table is printed `WIDTH` columns wide, whatever the
terminal (at 80 the wider tables fall back to one block per row, tapete.cli_render.fit).
It runs the command itself, so it sits beside the CLI, above the analysis it documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

# every house-banked game, in the order of the catalogs' families (tests/analysis/test_simulate_all.py: BANKED)
GAMES = ("roulette-french", "roulette-french-short", "roulette-american", "boule", "wheel-of-fortune", "craps",
         "punto-banca", "blackjack", "trente-quarante", "poker-sin-descarte", "trijoker", "tripoker", "pai-gow",
         "casino-monte", "monte-banca")
WIDTH = 120                  # the doc-drift test's default terminal (tests/test_doc_examples.py)
SLOW = ("blackjack",)        # blocks that take tens of seconds: the derived chart is solved before its stored figure

HEAD = """\
# `tapete edge`: the house edge document

<!-- Written by `python scripts/edge_doc.py` from `tapete edge` (src/tapete.edge_doc.py); do not edit by
hand: tests/analysis/test_edge_doc.py fails when this file differs from what the code prints. -->

`tapete edge GAME -j J [--json]` gives the house edge of every bet the game offers, per unit of the bet's amount
(pushes counted as staked), and **how each figure was obtained**. Only a figure computed in exact arithmetic is ever
written as a fraction; every other figure is a decimal that carries its precision. The same lines feed
`tapete simulate` (the reference each simulated interval is checked against), `tapete risk`, `tapete report` and
`tapete par`. Every figure of every house-banked game is below ([Every figure](#every-figure)).

## Fields of a bet line (`--json`)

| field | present | meaning |
|---|---|---|
| `kind` | always | the bet kind, as in `tapete games --json` |
| `on` | when targets differ | the target, when the edge depends on it (craps odds per number) |
| `option` | when a decision or variant applies | the strategy or option the figure assumes (`prison`, `basic-strategy`, `optimal`, `max-odds`, `long-run`) |
| `house_edge` | always | per unit of the bet's amount. `exact`: the fraction `"p/q"` (or an integer `"0"`); otherwise a decimal string written to its precision, plus one digit |
| `house_edge_percent` | always | the same figure in percent, a number rounded to 4 decimals for display; it claims no precision of its own |
| `method` | always | `exact`, `enumerated-float`, `simulated` or `model` (below) |
| `error_bound` | `enumerated-float` | a number: the reported edge is within this distance (per unit staked) of the true edge of the stated model |
| `approximation` | `enumerated-float`, when the model simplifies the game | what is approximated, and how the bound was established |
| `interval` | `simulated` | `[low, high]`: the confidence interval of the house edge |
| `confidence` | `simulated` | the interval's level, `0.99` |
| `rounds` | `simulated` | the sample size |
| `per_unit` | a bet with more than one stake or a premium | the two per-unit figures ([below](#per-unit)) |
| `minimum_return` | a `model` whose text sets a minimum return | `{"return": "p/q", "source", "met"}` |
| `problems` | a `model` whose configuration breaks its text or the model | sentences, each with its citation |
| `note` | usually | the assumptions the figure rests on (strategy, jackpot meter, coups after a tie) |

## Methods

- **`exact`** — a true `Fraction` computed in exact arithmetic from the rules engine (the generic solver over the
  game's own `chance`/`step`/`settle`, or a game's enumeration of shoe compositions or deals in integers and
  Fractions). No exact line rests on a meter, a simulation or a float (tests/analysis/test_figures_per_unit.py);
  `tests/analysis/test_honest_numbers.py` fails on any exact line whose denominator is what a rounded or converted
  float leaves, unless the game itself states the figure (the 1% insurance premium, a pool's prize percentage).
- **`enumerated-float`** — an enumeration of every outcome in float64 arithmetic; `error_bound` states how far the
  figure may be from the model's true value, `approximation` how the model simplifies the game. Blackjack's main bet
  falls back to it for a chart whose exact figure (scripts/exact_blackjack.py) is not stored.
- **`simulated`** — the mean of a stored Monte Carlo sample (its `rounds`, seed and generator named in the note),
  with its 99% normal interval: Pai Gow's bets, both hands set by the house way.
- **`model`** — exact arithmetic on a model of something the rules leave to the day: a jackpot meter. The note
  states the model's assumptions. The carousels of póquer sin descarte and tripóquer
  (src/tapete/analysis/jackpots.py) and blackjack's Bolsa are meters: a `jackpot` line without `long-run` is one
  hand with the meter at its floor (what `tapete simulate` plays); the `long-run` line is the meter's long-run
  return, share + seed × P(royal flush) + P(a prize): everything the meter pays went into it as the stakes' share or
  the house's seed. The texts: ES-IB puts 90% of each carousel stake into the meter (000:1365) and sets no seed;
  ES-AN seeds it at 5,000 × the stake or more (003:3240-3242), leaves the share to the casino (003:3243-3244) and
  pays every prize out of it (003:3247-3249); tripóquer's carousel must return at least 70% (003:3827-3830). Without
  a configuration the line shows the text's share, else the lowest the text allows; `--jackpot-share S` and
  `--jackpot-seed N` show a casino's configuration, and what it breaks (under the minimum return, a share the text
  fixes otherwise, a seed under the floor, a share that cannot pay the fixed prizes). A casino file's validation
  calls `tapete.analysis.jackpots.check_carousel(game, jurisdiction, share, seed, cap)` for the same checks.

Exact lines are shown as fractions in the terminal table; the others as decimals with the method, error bound or
interval beside them.

## Per unit of what: the initial bet and the money wagered {#per-unit}

`house_edge` is per unit of the bet's amount. A bet that stakes more than its amount, or adds or withdraws money
during the round, also reports, under `per_unit` (and below the terminal table):

| field | meaning |
|---|---|
| `initial_bet` | what is staked when the bet is made, per unit of the amount: trijoker's three bets (`3`), a trente et quarante bet and its 1% insurance premium (`101/100`) |
| `average_wager` | the money at risk by the end of the round, on average, per unit of the amount: the call of sin descarte (twice the ante) and tripóquer (the Bet), blackjack's doubles and splits, trijoker's bets 1 and 2 kept, craps odds behind a line bet (option `max-odds`: the catalog's maximum odds on every number) |
| `average_wager_method` | how the average wager is known (all exact today) |
| `house_edge_per_initial_bet` | the expected loss over the initial bet |
| `element_of_risk` | the expected loss over the average wager: the standard references' *element of risk* |
| `element_of_risk_method` | the weaker of the two methods it rests on |
| `how` | what adds or withdraws money, with its citation |

Pai Gow's commission is deducted from the win (003:3770-3773; 003:3944-3949), not staked: both figures equal the
edge, and say so. Its house edge per resolved hand (pushes left out) is in the PAR sheet, from the same stored run
and with that run's interval.

## In `tapete simulate --json`

Each simulated bet carries, where `tapete edge` has a non-simulated line for it: `reference_method`,
`rtp_reference` (1 − that edge), and either `house_edge_exact` (a fraction; `rtp_exact` repeats `rtp_reference`)
or `house_edge_enumerated` with its `error_bound`, or `house_edge_model` (a meter's snapshot, the model the kernel
plays).

## The PAR sheet: `tapete par GAME -j J [--out DIR] [--rounds N] [--seed S]`

Writes `DIR/par-GAME-J.html` (default `par/`), a Probability Accounting Report stamped with tapete's version and
the SHA-256 of the game's rules data (every rule's value and source in every jurisdiction, canonical JSON), so a
lab can tell which rules a sheet was computed from. A sample: [docs/par/par-roulette-french-ES.html](par/par-roulette-french-ES.html).
Per bet:

- **Outcomes** — for games the generic solver handles (roulette, boule, wheel of fortune, craps) the first chance
  event's outcomes, grouped by net result, each with its exact probability and contribution (probability × (1 +
  net)) to the return; an outcome after which the bet lives on (a prison, a point) is one row with its exact
  expected return from there. The probabilities add up to 1 and the contributions to the RTP exactly (a test).
  Punto y banca's rows come from its exact enumeration of the shoe. For the other games the exact solver gives the
  expectation only, so the rows are the simulation's observed frequencies, and say so.
- **House edge per bet made** (the `tapete edge` figure, pushes counted), **per unit of the initial bet**, and
  **per bet resolved** (over the bets that are not pushes: edge / (1 − P(push)); a simulated figure's from its own
  run only).
- **Hold** — theoretical: the house edge per bet made, assuming each unit bought in is wagered once; a table's
  reported hold is this edge times its handle over its drop.
- **Standard deviation** per unit and **hit frequency** (P(net > 0)) — exact where the generic solver applies
  (analysis/moments.py), else simulated.
- **Element of risk** — the house edge per unit actually wagered: the line's `per_unit` figure where it has one
  (sin descarte's and tripóquer's call from their exact optimal strategies, trijoker's withdrawals, blackjack's
  chart, the insurance premium), the exact solver's average wager for the generic games; a bet that takes no
  decision risks itself.
- **Strategy**, the figure's precision, every rule of the jurisdiction with its citation, every jurisdiction's edges
  side by side with the rules that differ, and a **simulation check** that says which strategy it plays (sin
  descarte's kernel plays a simple strategy, 2.25e-6 per ante from the optimal one): the RTP and SD of `--rounds`
  simulated rounds with intervals that hold at 99% jointly over all the sheet's checks (Bonferroni).

## `tapete risk`

The house's result per table-session, the table float and the casino's guarantee, simulated; every layout's house
edge per unit staked with its 99% interval (`house_edge`) beside the `tapete edge` figure of its bets
(`reference`, `reference_method`, `inside`). Where the generic solver applies, the layout's exact mean and standard
deviation per round (`exact_per_round`). The card games' compiled kernels count each bet's returns: their sessions
are drawn from that sample in a random order (`sampling: histogram`; the coups of one shoe are taken as
independent), one bet per layout.

## Every figure

Per game, per jurisdiction, what `tapete edge` prints. Blackjack's blocks take tens of seconds each (the chart is
derived before its stored exact figure is read).
"""


def _edge_output(game: str, jurisdiction: str) -> str:
    from typer.testing import CliRunner

    from tapete import cli

    width = cli.console.width
    cli.console.width = WIDTH
    try:
        result = CliRunner().invoke(cli.app, ["edge", game, "-j", jurisdiction])
    finally:
        cli.console.width = width
    if result.exit_code != 0:
        raise RuntimeError(f"tapete edge {game} -j {jurisdiction}: {result.output}")
    return "\n".join(line.rstrip() for line in result.output.rstrip("\n").splitlines())


def _marker(game: str) -> str:
    """The doc-drift options of a block (tests/test_doc_examples.py): its width; blackjack's are slow."""
    return f"<!-- doc-example: {'slow, ' if game in SLOW else ''}columns={WIDTH} -->"


def blocks(games: Iterable[str] = GAMES, progress: Callable[[str], None] | None = None) -> list[tuple[str, str]]:
    """(game, the markdown of its section) for each game: one `$ tapete edge` block per jurisdiction."""
    from tapete.catalog import get_game

    out = []
    for game in games:
        g = get_game(game)
        text = f"### {g.name_en} (`{game}`)\n"
        for jurisdiction in g.rules:
            if progress:
                progress(f"{game} {jurisdiction}")
            text += (f"\n{_marker(game)}\n```\n$ tapete edge {game} -j {jurisdiction}\n"
                     f"{_edge_output(game, jurisdiction)}\n```\n")
        out.append((game, text))
    return out


def render(progress: Callable[[str], None] | None = None) -> str:
    """The whole of docs/edge.md."""
    return HEAD + "".join("\n" + text for _, text in blocks(progress=progress))


def section(markdown: str, game: str) -> str:
    """A game's section of a written docs/edge.md (what `blocks` gives for it), to compare one game at a time."""
    start = markdown.index(f"(`{game}`)\n")
    start = markdown.rindex("\n### ", 0, start) + 1
    end = markdown.find("\n### ", start)
    return markdown[start:] if end < 0 else markdown[start:end]
