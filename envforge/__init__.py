"""envforge: synthesize interactive, verifiable environments for tool-using LLM agents."""

__version__ = "0.1.0"
