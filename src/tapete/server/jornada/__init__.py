"""The jornada (the casino's day of play) and each table's books: opening with the anticipo counted in, fills,
credits, the drop, tips and cagnotte, the closing counted out, and the books derived from the ledger rows."""
