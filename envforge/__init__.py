"""envforge: synthesize interactive, verifiable environments for tool-using LLM agents.

From Python, the verbs are the library: `envforge.generate("retail", "generated")` builds a package and returns
its `RunResult`; `batch`, `fuse`, `check`, `rollout`, `validate`, `export` and `view` do what the commands of
those names do (their packages are `rollouts/`, `exporters/` and `viewer/`, so each verb has its name).
They take plain values (paths, names, `RolloutOptions`), return typed outcomes, and never print. They load on
first use: `import envforge`, which every exported package's runtime does, loads only `envforge.version`.

Layout, lowest layer first; a package imports only from layers above it in this list
(`tests/test_architecture.py` checks that no two packages import each other, even through others, and that no
two files do):

- `errors`, `hashing`, `files` (atomic writes, stable JSON), `text`, `fakedata`, `version`: leaves. And
  `executors`: where long work runs (a process pool, Ray tasks, the one Ray session that batches and rollouts
  share), whether work may take a second core, and `Progress`, the callback through which long work reports
  without printing.
- `ir/`: the declarations (blueprint, tool specs, tasks, verdicts, reports, how an outcome displays, what serving
  is asked for, noise profiles); pydantic and dataclasses, no I/O beyond loading. And
  `ir/display.py`: how an outcome shows itself to people (its tables and lines, as plain strings).
- `runtime/`: what an exported package runs (sessions and their history, dispatch, ownership, the verifier's
  judge, typed answers and the claim reader of the agent's messages (`claims/`), one episode store and one
  harness API for MCP and the apps, MCP, apps, Gym, tool noise and a noise curriculum, a task's oracle
  replayed, a package served until interrupted); imports only `ir` and the leaves.
- `package/`: the package folder. It alone writes a package's manifest, renders `report.md` from every
  report section, re-hashes, and swaps the folder in atomically. The `package` stage builds through it;
  `validate`, `verify-ui` and `reverify --report` change a package through `update_package`.
- `pipeline/`: the DAG machinery (typed `Stage`, `GenerateConfig`, the cached runner, which builds an `aside`
  stage on a thread beside the stages after it); knows no stage. And
  `pipeline/progress.py`: how long work (a stage, a check, a bench row) tells whoever watches the run which step
  it is in and how many of its items are done.
- `stages/<stage>/`: one folder per stage: `stage.py` declares it (its inputs as a `StageInputs` model
  whose fields are named for the stages that make them), `artifact.py` its output. A stage imports of
  another stage only its `artifact` module. `stages/registry.py` assembles the DAG; `stages/generate.py`
  runs it for a blueprint and publishes the package.
- `llm/`, `users/`, `rollouts/` (episodes of a served model, here or on Ray), `synthesis/`, `validators/`,
  `exporters/`, `adapters/`, `bench/`, `serving/`, `lint/` (a blueprint's static checks and a dry run of the
  stages up to the verifier gate).
- `suite/`: blueprint files as a user names and writes them (shipped names, folders, list files; `new`'s
  starting blueprint; `fuse`'s `compose:` blueprint), and a batch of them in a process pool or on Ray, with its
  `suite.json` and its throughput per executor (`bench-suite`).
- `viewer/`: `envforge view`, a static HTML site over a package, a rollout run or a suite, for people to look at.
- `verbs`: the verbs above, each a typed function that calls the packages doing the work.
- `cli/`: `app.py` registers the commands, a module of `cli/commands/` per kind of work (blueprints, generating,
  packages, rollouts, serving, benchmarks), with the options several share in `options.py`. A command parses
  its options, calls a verb (or the one library function it stands for) and prints what comes back through
  `output.py`, which draws any outcome's display (or its JSON) and every progress bar, or off a terminal the
  progress lines and heartbeat of `progress.py`; what a result says is the outcome's own. It is the only layer that prints, and holds no orchestration or validation.

Where each part of an app screen lives: the `envforge.runtime.apps` docstring.

Ownership rules:

- A generated package is written only through `envforge.package`.
- Only `cli/` prints. Library code that takes long reports through the callbacks its caller hands in
  (`on_stage`, an `executors.Progress`, the watcher `pipeline.progress.watching` sets), which is how the
  command line draws its bars and lines.
- Ray is imported only by `executors` (`import_ray`, `ray_session`); code that runs work on Ray is handed the
  module by its caller.
- The LLM review of `generate --from-description` is the `review` stage; the stage defines the
  `TaskReviewer` it calls, `synthesis` supplies it, so stages never import LLM code.
- A verifier judges only a run's history and what the agent told the user (`runtime/verify.py`): what the store
  logged, never the whole state.
  Whose a row is comes from `ir/ownership.py` alone; the runtime, the synthesizer and the gate ask it.
- Effect kinds are one closed union (`ir.blueprint.EffectSpec`): every place that must handle each kind
  matches on it exhaustively, so mypy fails until a new kind is handled everywhere.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from envforge.version import __version__

if TYPE_CHECKING:
    from envforge.verbs import RolloutOptions, batch, check, export, fuse, generate, rollout, validate, view

__all__ = [
    "RolloutOptions",
    "__version__",
    "batch",
    "check",
    "export",
    "fuse",
    "generate",
    "rollout",
    "validate",
    "view",
]


# Hidden from the type checker, which sees the verbs through the imports above and so still reports a misspelt one.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        # The verbs load on first use, so that `import envforge`, which every exported package's runtime does,
        # stays cheap: `envforge.verbs` imports the generator's config, and each verb the whole of what it runs.
        if name in __all__:
            return getattr(import_module("envforge.verbs"), name)
        raise AttributeError(f"module 'envforge' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
