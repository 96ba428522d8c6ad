"""tapete: the Spanish casino games catalogs as software."""

__version__ = "0.1.0"
