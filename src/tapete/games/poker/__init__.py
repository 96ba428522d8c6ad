"""Poker family: the shared hand evaluator (`evaluator`) that ranks the hands of every poker game."""
