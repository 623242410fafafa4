"""The conformance suite any generated environment package must pass (`envforge check`), for a user's CI.

It lives inside the distribution: a top-level `validators` package would shadow the PyPI package of that
name in users' environments."""
