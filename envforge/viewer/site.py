"""`envforge view`: the site for what a path is, written atomically beside it (or where asked)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envforge.errors import UserInputError
from envforge.files import write_dir_atomic
from envforge.ir.display import Display
from envforge.viewer.detect import ViewKind, detect_kind
from envforge.viewer.pages import Site


@dataclass(frozen=True)
class ViewReport:
    """The site written: where its first page is, what it shows, and how many pages it has."""

    kind: ViewKind
    source: Path
    out: Path
    pages: int

    @property
    def index(self) -> Path:
        return self.out / "index.html"

    def display(self) -> Display:
        return Display(lines=[f"{self.kind} view of {self.source}: {self.pages} pages", str(self.index)])

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "source": str(self.source), "index": str(self.index), "pages": self.pages}


def default_out(path: Path) -> Path:
    """Beside the input, never inside it: a package's manifest lists every file of its folder."""
    return path.with_name(f"{path.stem if path.is_file() else path.name}-view")


def build_site(path: Path, kind: ViewKind) -> Site:
    # Each kind's pages load only what that kind needs.
    if kind == "package":
        from envforge.viewer.package import package_site

        return package_site(path)
    if kind == "suite":
        from envforge.viewer.suite import suite_site

        return suite_site(path)
    from envforge.viewer.rollouts import run_site, runs_site

    return run_site(path) if kind == "run" else runs_site(path)


def write_view(path: Path, out: Path | None = None) -> ViewReport:
    """Render the site of `path` into `out` (default: `<path>-view` beside it) and return where it is."""
    kind = detect_kind(path)
    target = out if out is not None else default_out(path)
    if target.suffix == ".html":
        raise UserInputError(f"-o {target}: the view is a folder of pages; give a folder, e.g. -o {target.parent}")
    if target.resolve() == path.resolve() or path.resolve() in target.resolve().parents:
        raise UserInputError(f"-o {target}: inside the input {path}; write the view beside it")
    site = build_site(path, kind)
    write_dir_atomic(target, site)
    return ViewReport(kind, path, target, sum(name.endswith(".html") for name in site))
