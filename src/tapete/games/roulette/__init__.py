"""Roulettes: French (and later the *abreviada* and single-zero American), sharing one layout and reducer."""
