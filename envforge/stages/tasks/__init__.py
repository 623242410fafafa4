"""Stage `tasks`: tasks synthesized by walks over the tool graph, executed on a fork of the state."""
