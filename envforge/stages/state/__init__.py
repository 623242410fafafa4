"""Stage `state`: the SQLite schema derived from the ontology, filled with seeded data."""
