"""Round documents <-> engine: `tapete settle` (docs/format.md)."""
