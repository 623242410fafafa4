"""What `envforge lint` found: the blueprint's shape once its static checks passed, and the dry run's coverage."""

from __future__ import annotations

from envforge.ir.base import IRModel
from envforge.ir.blueprint import Blueprint
from envforge.ir.display import Display
from envforge.lint.coverage import Coverage


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class LintReport(IRModel):
    blueprint: str
    """The file as the user named it."""
    env_id: str
    counts: dict[str, int]
    """Section -> declarations in it (entities, relations, actions, policies, invariants, personas)."""
    coverage: Coverage | None
    """None when the dry run was skipped (`--no-coverage`)."""
    seconds: float

    @property
    def warnings(self) -> list[str]:
        """One line per problem a full `generate` would warn about; a clean blueprint has none."""
        if self.coverage is None:
            return []
        coverage = self.coverage
        return [
            *(f"{tool}: the tool tests exclude it: {reason}" for tool, reason in coverage.excluded_tools.items()),
            *(f"{action}: no task makes it: {reason}" for action, reason in coverage.mix.unreached.items()),
            *(f"policy {policy}: no task hinges on it: {why}" for policy, why in coverage.mix.unexercised.items()),
            *([coverage.shortfall] if coverage.shortfall else []),
        ]

    def lines(self) -> list[str]:
        """The report for people: one line per finding."""
        shape = ", ".join(f"{name} {count}" for name, count in self.counts.items())
        lines = [f"{self.blueprint}: {self.env_id}: static checks passed ({shape})"]
        coverage = self.coverage
        if coverage is not None:
            mix = coverage.mix
            policy = ", ".join(f"{kind} {count}" for kind, count in mix.policy_tasks.items()) or "none"
            dropped = ", ".join(f"{code} {count}" for code, count in coverage.dropped.items()) or "none"
            lines.append(
                f"dry run ({coverage.config.rows} rows, seed {coverage.config.seed}, {coverage.seconds:.1f} s): "
                f"{coverage.tasks_accepted} of {coverage.config.tasks} tasks accepted; "
                f"hinging on a policy: {policy}; dropped by the gate: {dropped}"
            )
            lines += [f"  {action}: {_plural(count, 'task')}" for action, count in mix.by_action.items() if count]
        lines += [f"warning: {warning}" for warning in self.warnings]
        lines.append(f"{_plural(len(self.warnings), 'warning')} in {self.seconds:.1f} s")
        return lines

    def display(self) -> Display:
        return Display(lines=self.lines())

    def as_dict(self) -> dict[str, object]:
        return {**self.model_dump(mode="json"), "warnings": self.warnings}


def count_sections(blueprint: Blueprint) -> dict[str, int]:
    return {
        "entities": len(blueprint.entities),
        "relations": len(blueprint.relations),
        "actions": len(blueprint.actions),
        "policies": len(blueprint.policies),
        "invariants": len(blueprint.invariants),
        "personas": len(blueprint.personas),
    }
