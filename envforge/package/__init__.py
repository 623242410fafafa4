"""The environment package folder, and the one owner of what is written into it.

Every command that makes or changes a package goes through here: the `package` stage assembles a new
one (`assemble`), `validate`, `verify-ui` and `reverify --report` change one in place (`update_package`).
This module alone writes the manifest, renders `report.md` from every report section (gate, UI tasks,
UI replay, rollouts, LLM synthesis), re-hashes the files, and swaps the folder in atomically.
"""

from envforge.package.folder import assemble, publish, update_package

__all__ = ["assemble", "publish", "update_package"]
