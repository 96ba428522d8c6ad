"""Alembic environment: run on the connection `upgrade()` hands over, or on sqlalchemy.url."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from tapete.server.storage.db import metadata, normalise_url

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(normalise_url(config.get_main_option("sqlalchemy.url")))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
