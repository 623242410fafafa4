"""The commands of `envforge`, a module per kind of work; `envforge.cli.app` registers them.

A module imports at the top only typer and the light shared modules (options, errors), and the rest inside
each command: `envforge --help` and each command then start without loading what the other commands need.
"""
