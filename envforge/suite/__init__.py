"""Blueprint files as a user names and writes them, and the work over several at once.

`blueprints` turns names, folders and list files into blueprint paths; `scaffold` writes a starting blueprint
(`new`); `fusion` writes the `compose:` blueprint of 2-3 domains (`fuse`); `run` generates a batch of them with
the `settings` of a batch, in a process pool or on Ray, into `report`'s suite.json; `throughput` times a batch
under each executor.
"""
