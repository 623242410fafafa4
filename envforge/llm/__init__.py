"""One client for every LLM call envforge makes: any OpenAI-compatible endpoint, with an on-disk cache."""

from envforge.llm.cache import CacheMode, ResponseCache
from envforge.llm.client import ChatResult, LLMClient, Usage
from envforge.llm.errors import CacheMissError, ContextLimitError, InfrastructureError

__all__ = [
    "CacheMissError",
    "CacheMode",
    "ChatResult",
    "ContextLimitError",
    "InfrastructureError",
    "LLMClient",
    "ResponseCache",
    "Usage",
]
