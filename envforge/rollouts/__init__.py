"""Agents in the loop: episodes of a served model against an environment package, saved as trajectories.

`options` declares what a rollout is asked for, `clients` builds what those options make, `run` runs the episodes
here or (`ray_actors`) on Ray and saves them; `runner` and `episode` run them, `solvability` and `reverify`
judge the trajectories.
"""
