"""What exported environments import: sessions, tool dispatch, the MCP server. Imports `ir` only."""

from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.errors import ToolError
from envforge.runtime.opened_package import OpenedPackage, open_package
from envforge.runtime.session import Session

__all__ = ["Environment", "OpenedPackage", "Session", "ToolError", "load_environment", "open_package"]
