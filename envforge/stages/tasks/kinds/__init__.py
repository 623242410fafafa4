"""The kinds of task the synthesizer drafts, a module each; `registry.KINDS` lists them in drafting order.

Adding a kind is a module with a `DraftKind` and its entry in `KINDS` (and, for a new share of the mix, its
quota in `mix.QUOTAS`).
"""
