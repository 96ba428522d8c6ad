"""The player's own room (issue 31): who he is (identity), what he allows himself (limits, self-exclusion), what
the operator forbids (the excluded list), and his own record (statement, rounds). Above the money, beside the tables."""
