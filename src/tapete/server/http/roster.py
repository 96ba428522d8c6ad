"""The casino file's `[[users]]` applied at every start: the file is the truth for the staff it declares
(issue 26, item 8; docs/server.md § Staff accounts and the casino file).

- An account the file declares and the database lacks is created (a player's demo chips bought once).
- A staff account the file declares — staff in the file or in the database — takes the file's roles, tables and
  password; each change is in the staff log (actor `config`) and ends the account's sessions and streams. An
  account unchanged keeps its sessions.
- A staff account the file once declared (the staff log's `config` records name it) and no longer does is
  disabled: no roles, no password that verifies, no session, no stream. Re-declared, it comes back.
- Players are the casino's customers, not the file's: a player the file declares is created once and then left
  alone (his password and wallet are his), and one removed from the file keeps his account.
- Accounts the operator made with `tapete users` and the file never named are left alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from tapete.server.accounts import STAFF_ROLES
from tapete.server.config import UserConfig
from tapete.server.http.auth import DISABLED, Auth
from tapete.server.storage.db import staff_log

FILE_ACTOR = "config"


def apply(auth: Auth, declared: Sequence[UserConfig]) -> list[str]:
    """Bring the accounts in line with the casino file; the names created (for their demo chips)."""
    created: list[str] = []
    for u in declared:
        found = auth.account(u.username)
        if found is None:
            if auth.create_user(u.username, password=u.password, password_hash=u.password_hash, roles=u.roles,
                                tables=u.tables, actor=FILE_ACTOR):
                created.append(u.username)
            continue
        user, stored = found
        if not (user.roles | set(u.roles)) & STAFF_ROLES and stored != DISABLED:
            continue                                    # a player's account is his own once made
        tables = tuple(u.tables) if u.tables is not None else None
        if user.roles != frozenset(u.roles) or user.tables != tables:
            auth.set_roles(u.username, list(u.roles), u.tables, actor=FILE_ACTOR)
        if u.password_hash is not None:
            if stored != u.password_hash:
                auth.set_password_hash(u.username, u.password_hash, actor=FILE_ACTOR)
        elif u.password is not None and not auth.password_is(stored, u.password):
            auth.set_password_hash(u.username, auth.hasher.hash(u.password), actor=FILE_ACTOR)
    names = {u.username for u in declared}
    for gone in sorted(_declared_before(auth) - names):
        found = auth.account(gone)
        if found is not None and found[0].roles & STAFF_ROLES:
            auth.disable(gone, actor=FILE_ACTOR)
    return created


def _declared_before(auth: Auth) -> set[str]:
    """The accounts the casino file has created or changed (its records in the hash-chained staff log)."""
    with auth.db.read() as conn:
        return {r[0] for r in conn.execute(select(staff_log.c.subject).distinct().where(
            staff_log.c.actor == FILE_ACTOR, staff_log.c.action.in_(("account-created", "roles-granted", "password-set"))))
            if r[0] is not None}
