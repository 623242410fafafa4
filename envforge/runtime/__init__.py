"""What exported environments import: sessions, tool dispatch, the MCP server. Imports `ir` only."""

from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.errors import ToolError
from envforge.runtime.session import Session

__all__ = ["Environment", "Session", "ToolError", "load_environment"]
