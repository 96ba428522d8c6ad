"""The test lab's kit (docs/lab.md): the conformance suite exported for other systems, the comparer that runs it
against them, the reference endpoint, and the RNG and shuffle certification battery. Imports the engine and the
games, never the reverse."""
