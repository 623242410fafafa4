"""The policy document the agent reads (also the MCP server's instructions)."""

from __future__ import annotations

from envforge.ir.blueprint import Blueprint


def render_policy(blueprint: Blueprint) -> str:
    lines = [f"# {blueprint.title}", ""]
    if blueprint.agent_instructions:
        lines += [blueprint.agent_instructions.strip(), ""]
    lines += ["## Domain", "", blueprint.description.strip(), ""]
    lines += [f"The current date and time is {blueprint.clock.isoformat()}.", ""]
    if blueprint.policies:
        lines += [
            "## Policies",
            "",
            "The system enforces these rules; a refused call says which one applies.",
            "",
        ]
        lines += [f"- **{policy.id}**: {policy.text.strip()}" for policy in blueprint.policies]
        lines.append("")
    return "\n".join(lines)
