"""Adapters to training frameworks (verl, TRL). They import `envforge.runtime` and nothing of the generator,
and ship in the `envforge-runtime` wheel; the frameworks themselves are imported only where needed."""
