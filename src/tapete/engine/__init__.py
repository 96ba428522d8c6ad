"""The round engine every game plugs into: events, the Game protocol, settlement, the registry."""
