"""envforge's version: in every package's manifest, in every stage's cache key, and in the runtime wheel."""

__version__ = "0.1.0"
