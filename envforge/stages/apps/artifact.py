"""The `apps` stage's output: the screens spec and the app assets, as they land in the package under `apps/`."""

from __future__ import annotations

from typing import Self

from envforge.files import dump_json
from envforge.ir.apps import AppSpec
from envforge.pipeline.artifacts import Artifact

SPEC = "apps/app.json"


class AppsArtifact(Artifact):
    """`apps/app.json` plus `apps/web/...` and `apps/phone/...` (templates and static files)."""

    spec: AppSpec
    assets: dict[str, bytes]
    """Path under the package (e.g. `apps/web/list.html`) -> bytes."""

    def to_files(self) -> dict[str, bytes]:
        return {SPEC: dump_json(self.spec.model_dump(mode="json")), **self.assets}

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        assets = {name: data for name, data in files.items() if name != SPEC}
        return cls(spec=AppSpec.model_validate_json(files[SPEC]), assets=assets)
