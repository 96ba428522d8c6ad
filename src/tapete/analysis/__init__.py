"""Exact analysis and simulation, from the same reducer that settles rounds."""
