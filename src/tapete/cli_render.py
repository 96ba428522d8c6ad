"""Tables that are never cut (issue 28 point 3), and progress that shows only where someone watches (point 2).

Rich shortens a cell that does not fit with `…`: a fraction `107172496/7031403…` or an id read that way is wrong,
not short. `FittingConsole` (the `tapete` command's console) prints every table so that no cell is cut:

1. every column folds instead of cutting (overflow "fold": the rest of a long text goes to the next line);
2. a column whose cells are single words — numbers, fractions, ids, citations — is never wrapped: the other
   columns give up their width first (down to FOLDED characters, their long words folded);
3. when even that cannot fit (the single-word columns alone are wider than the terminal), the table is printed
   vertically: one block per row, `column  value` per line.

`progress(console, description, as_json=...)` is the one progress display of the long commands (report, par,
edge and strategy of blackjack): a Rich spinner or bar on a terminal, nothing on a pipe, a log or with --json.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from rich.console import Console, ConsoleOptions
from rich.table import Table
from rich.text import Text

FOLDED = 12        # the narrowest a text column is let to become (its long words fold) before going vertical


class FittingConsole(Console):
    """A Console whose `print` lays out tables so that no cell is cut (the module's docstring)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # type: ignore[override]
        super().print(*(fit(o, self) if isinstance(o, Table) else o for o in objects), **kwargs)


def fit(table: Table, console: Console, width: int | None = None) -> Any:
    """`table` with no cell cut at `width` (default: the console's), or its vertical layout where it cannot."""
    width = width or console.width
    for column in table.columns:
        column.overflow = "fold"
        if column.width is None and all(_one_word(c) for c in column.cells):
            column.no_wrap = True
    options: ConsoleOptions = console.options.update_width(width)
    if _narrowest(table, console, options) <= width:
        return table
    return vertical(table)


def _narrowest(table: Table, console: Console, options: ConsoleOptions) -> int:
    """The least width `table` takes without cutting a single-word column: those at their widest, the others at
    their longest word, plus the borders and padding."""
    widths = []
    for index, column in enumerate(table.columns):
        measured = table._measure_column(console, options, column)  # noqa: SLF001 - Rich's own measure, per column
        folded = table._get_padding_width(index) + FOLDED  # noqa: SLF001 - a text column may fold its long words
        widths.append(measured.maximum if column.no_wrap else min(measured.minimum, folded))
    edges = table._extra_width  # noqa: SLF001 - the borders and separators Rich adds
    return sum(widths) + edges


def vertical(table: Table) -> Any:
    """One block per row: the column's header and the row's value on each line, headed by the table's title."""
    from rich.console import Group
    from rich.rule import Rule

    headers = [_plain(c.header) for c in table.columns]
    blocks: list[Any] = []
    if table.title:
        blocks.append(Text.from_markup(table.title) if isinstance(table.title, str) else table.title)
    rows = list(zip(*(list(c.cells) for c in table.columns), strict=True))
    for row in rows:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(overflow="fold")
        for header, cell in zip(headers, row, strict=True):
            grid.add_row(header, cell)
        blocks.extend((Rule(style="dim"), grid))
    if table.caption:
        blocks.append(table.caption)
    return Group(*blocks)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


def _plain(cell: Any) -> str:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    return ""


def _one_word(cell: Any) -> bool:
    """A cell that must not be broken: each of its lines one token (a number, a fraction, an id, a citation)."""
    if not isinstance(cell, str | Text):
        return False
    return all(len(line.split()) <= 1 for line in _plain(cell).splitlines() or [""])


@contextlib.contextmanager
def progress(console: Console, description: str, *, as_json: bool = False,
             bar: bool = False) -> Iterator[Callable[..., None]]:
    """Say what a long command is doing while it does it: a Rich spinner and the time elapsed (with `bar`, a bar of
    the steps done) on stderr when it is a terminal; nothing on a pipe, in a log or with --json. Yields
    `update(description=None, completed=None, total=None)`."""
    from rich import progress as rich

    columns: list[Any] = [rich.SpinnerColumn(), rich.TextColumn("[bold]{task.description}")]
    if bar:
        columns += [rich.BarColumn(bar_width=20), rich.MofNCompleteColumn()]
    quiet = as_json or not console.is_terminal
    # what the command prints meanwhile goes above the spinner when both are on the terminal; into its own file
    # (never onto the spinner's stream) when standard output is a pipe or a file
    shared = _is_terminal(sys.stdout)
    with rich.Progress(*columns, rich.TimeElapsedColumn(), console=console, transient=True, disable=quiet,
                       redirect_stdout=shared, redirect_stderr=False) as shown:
        task = shown.add_task(description, total=None)

        def update(description: str | None = None, completed: int | None = None, total: int | None = None) -> None:
            changes: dict[str, Any] = {}
            if description is not None:
                changes["description"] = description
            if completed is not None:
                changes["completed"] = completed
            if total is not None:
                changes["total"] = total
            shown.update(task, **changes)

        yield update
