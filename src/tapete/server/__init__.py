"""The table server (`tapete serve`): the engine's games as live tables with wallets, a double-entry
ledger, staff roles, fairness commitments and a hash-chained audit log. See docs/server.md."""
