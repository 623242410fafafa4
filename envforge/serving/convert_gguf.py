"""Dequantize a GGUF checkpoint into a plain transformers folder that vLLM can load.

    python convert_gguf.py GGUF_FILE OUT_DIR

A standalone script: `envforge.serving.models` runs it with the interpreter that has transformers,
torch and gguf (vLLM's), which is usually not the one envforge runs in, so it imports nothing from
envforge. Exit code 3 with one line on stderr when a library is missing.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

MISSING_LIBRARY = 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("gguf", type=Path, help="the .gguf file")
    parser.add_argument("out", type=Path, help="the folder to write (config.json, model.safetensors, tokenizer)")
    arguments = parser.parse_args(argv)
    # Everything is local; without this, transformers asks the model hub about the tokenizer.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import gguf  # noqa: F401  (transformers reads GGUF files through it)
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:
        print(f"{sys.executable} cannot convert a GGUF file: {exc}", file=sys.stderr)
        return MISSING_LIBRARY
    source: Path = arguments.gguf.resolve()
    tokenizer = AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name)
    model = AutoModelForCausalLM.from_pretrained(source.parent, gguf_file=source.name)
    # The weights were dequantized on load: drop the GGUF quantizer and its config so the folder is a plain checkpoint.
    model.hf_quantizer = None  # type: ignore[assignment]
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(arguments.out)
    tokenizer.save_pretrained(arguments.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
