"""LLM-backed synthesis: a blueprint written from a description, task instructions reworded in the persona's
voice, and an information barrier that checks each task's verifier from the instruction alone."""

from envforge.ir.synthesis import SynthesisReport
from envforge.synthesis.run import SynthesisConfig, SynthesisResult, synthesize_environment
from envforge.synthesis.writer import BlueprintRejectedError

__all__ = ["BlueprintRejectedError", "SynthesisConfig", "SynthesisReport", "SynthesisResult", "synthesize_environment"]
