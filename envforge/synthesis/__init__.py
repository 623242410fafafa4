"""LLM-backed synthesis: a blueprint written from a description, task instructions reworded in the persona's
voice, and an information barrier that checks each task's verifier from the instruction alone.

`options` declares what `generate --from-description` is asked for (light: the command line imports it as it
starts), `description` checks it into a `run.SynthesisConfig`, and `run.synthesize_environment` does the work.
"""
