"""`tapete excluded`: the operator loads the list of excluded persons (docs/operations.md#the-excluded-list)."""

from __future__ import annotations

from typing import Annotated

import typer

excluded_app = typer.Typer(help="The operator's list of excluded persons (identity documents), matched at "
                           "registration and at every login.", no_args_is_help=True)


@excluded_app.command("load")
def load(file: Annotated[str, typer.Argument(help="one DNI/NIE a line ('#' comments; a CSV's first column), or - for stdin")],
         database: Annotated[str | None, typer.Option("--database", help="database URL (default: $TAPETE_DATABASE_URL "
                                                                         "or sqlite:///tapete.db)")] = None,
         note: Annotated[str | None, typer.Option("--note", help="where the list comes from (kept with it)")] = None) -> None:
    """Replace the list by the file's documents; players registered with one of them are logged out at once."""
    from tapete import cli_args
    from tapete.core.errors import TapeteError
    from tapete.server.players import excluded
    from tapete.server.storage.opening import open_database

    try:
        documents = excluded.parse(cli_args.read_text(file, "the excluded list"))
        db = open_database(database, must_exist=True)
        out = excluded.load(db, documents, actor="operator", note=(note or "").replace("\x00", "")[:200] or None)
    except TapeteError as exc:
        cli_args.refuse(exc.code, exc.message)
    players = f"; logged out: {', '.join(out['players'])}" if out["players"] else ""
    typer.echo(f"{out['documents']} documents on the excluded list{players}")
