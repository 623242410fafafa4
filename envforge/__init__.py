"""envforge: synthesize interactive, verifiable environments for tool-using LLM agents.

Layout, lowest layer first; a package imports only from layers above it in this list
(`tests/test_architecture.py` checks that no two packages import each other, even through others):

- `errors`, `hashing`, `files` (atomic writes, stable JSON), `text`, `fakedata`: leaves.
- `ir/`: the declarations (blueprint, tool specs, tasks, verdicts, reports); pydantic, no I/O beyond loading.
- `runtime/`: what an exported package runs (sessions and their write history, dispatch, ownership, the
  verifier's judge and typed answers, MCP, apps, Gym); imports only `ir`.
- `package/`: the package folder. It alone writes a package's manifest, renders `report.md` from every
  report section, re-hashes, and swaps the folder in atomically. The `package` stage builds through it;
  `validate`, `verify-ui` and `reverify --report` change a package through `update_package`.
- `pipeline/`: the DAG machinery (typed `Stage`, `GenerateConfig`, the cached runner); knows no stage.
- `stages/<stage>/`: one folder per stage: `stage.py` declares it (its inputs as a `StageInputs` model
  whose fields are named for the stages that make them), `artifact.py` its output. A stage imports of
  another stage only its `artifact` module. `stages/registry.py` assembles the DAG; `stages/generate.py`
  runs it for a blueprint and publishes the package.
- `llm/`, `users/`, `rollout/`, `synthesis/`, `validators/`, `export/`, `adapters/`, `bench/`, `serving/`, `lint/`
  (a blueprint's static checks and a dry run of the stages up to the verifier gate).
- `cli/`: `app.py` registers one module per command (`cli/commands/`); the only layer that prints.

Where each part of an app screen lives: the `envforge.runtime.apps` docstring.

Ownership rules:

- A generated package is written only through `envforge.package`.
- The LLM review of `generate --from-description` is the `review` stage; the stage defines the
  `TaskReviewer` it calls, `synthesis` supplies it, so stages never import LLM code.
- A verifier judges only a run's history (`runtime/verify.py`): what the store logged, never the whole state.
  Whose a row is comes from `ir/ownership.py` alone; the runtime, the synthesizer and the gate ask it.
- Effect kinds are one closed union (`ir.blueprint.EffectSpec`): every place that must handle each kind
  matches on it exhaustively, so mypy fails until a new kind is handled everywhere.
"""

__version__ = "0.1.0"
