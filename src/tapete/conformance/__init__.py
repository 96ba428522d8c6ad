"""Round documents <-> engine: `tapete settle` (FORMAT.md)."""
