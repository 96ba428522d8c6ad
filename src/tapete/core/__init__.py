"""Core building blocks shared by every game: money, cards, randomness, jurisdictions, errors."""
