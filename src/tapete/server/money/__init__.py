"""Money: the double-entry ledger and the cage."""
