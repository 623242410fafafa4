"""The conformance suite any generated environment package must pass; usable in a user's CI."""
