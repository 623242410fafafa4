"""The app server (ASGI): pages under `/e/<page token>/`, and the harness API (`harness_routes.py`, the one the
MCP server mounts too) behind a bearer token.

A page only ever sees its own episode's live state through the tools; the harness API (create, reset,
snapshot, state, diff, verdict, close) is on a separate path and refuses any request without the token, so an
agent's page can read neither the task's answer nor the initial state.
"""

from __future__ import annotations

import mimetypes
import posixpath
import secrets
from collections.abc import Mapping
from types import CodeType
from typing import Unpack
from urllib.parse import parse_qsl

import jinja2
import jinja2.bccache
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from envforge.errors import PackageError
from envforge.ir.apps import AppSpec
from envforge.ir.uitasks import AppKind
from envforge.runtime.apps.pages import OFFSET, OFFSET_DIGITS, Pages
from envforge.runtime.bodies import FORM_LIMIT, BodyTooLargeError, client_error, read_body
from envforge.runtime.environment import Environment
from envforge.runtime.episode import EnvPackage
from envforge.runtime.episode_store import EpisodeStore, ServedEpisode, StoreLimits
from envforge.runtime.harness import Harness
from envforge.runtime.harness_routes import harness_routes
from envforge.runtime.opened_package import OpenedPackage

APPS: tuple[AppKind, ...] = ("web", "phone")
SHARED = "shared"
"""The folder beside `web/` and `phone/` with the templates and static files both apps use."""
SPEC_FILE = "apps/app.json"


def load_app(package: OpenedPackage, kind: AppKind) -> tuple[AppSpec, dict[str, bytes]]:
    """The package's app spec, and the templates and static files of the chosen app and of both apps
    (`apps/<app>/...`, `apps/shared/...`), each checked against its hash."""
    if not package.exists(SPEC_FILE) or not package.exists(f"apps/{kind}/base.html"):
        raise PackageError(
            f"{package.path}: no {kind} app in this package (apps/ is missing); regenerate it with `envforge generate`"
        )
    spec = AppSpec.model_validate_json(package.read(SPEC_FILE))
    folders = tuple(f"apps/{folder}/" for folder in (kind, SHARED))
    return spec, {name: package.read(name) for name in package.names("apps") if name.startswith(folders)}


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per process by name and source: the web and phone apps share `_ui.html`, and every
    site an app is served or walked from (each run's, each check's) compiles the same templates again otherwise.
    Every environment `app_templates` makes has the same settings, so their compiled code is interchangeable."""

    def __init__(self) -> None:
        self.code: dict[tuple[str, str], CodeType] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        bucket.code = self.code.get((bucket.key, bucket.checksum))

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:
            self.code[bucket.key, bucket.checksum] = bucket.code


COMPILED = CompiledTemplates()


def app_templates(loader: jinja2.BaseLoader) -> jinja2.Environment:
    return jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined, bytecode_cache=COMPILED)


def asset_loader(assets: dict[str, bytes], kind: AppKind) -> jinja2.DictLoader:
    """Templates of one app from the assets as they land in a package (`apps/<app>/...`, `apps/shared/...`)."""
    templates: dict[str, str] = {}
    for folder in (SHARED, kind):  # the app's own templates win over the shared ones
        prefix = f"apps/{folder}/"
        for name, data in assets.items():
            if name.startswith(prefix) and name.endswith(".html"):
                templates[name.removeprefix(prefix)] = data.decode("utf-8")
    return jinja2.DictLoader(templates)


def static_files(assets: Mapping[str, bytes], kind: AppKind) -> dict[str, bytes]:
    """The static files of one app by their path under `static/`: the app's own over those both apps use."""
    files: dict[str, bytes] = {}
    for folder in (SHARED, kind):
        prefix = f"apps/{folder}/static/"
        files |= {name.removeprefix(prefix): data for name, data in assets.items() if name.startswith(prefix)}
    return files


class AppSite:
    """The pages of one app (web or phone) of an environment for many isolated episodes, without the harness."""

    def __init__(
        self,
        env: Environment,
        spec: AppSpec,
        templates: jinja2.Environment,
        static: Mapping[str, bytes] | None,
        episodes: EpisodeStore | None = None,
    ) -> None:
        self.static = dict(static or {})
        """Static files by their path under `static/` (`static_files`)."""
        self.pages = Pages(env, spec, templates)
        self.episodes = episodes if episodes is not None else EpisodeStore(env)

    def _episode(self, request: Request) -> ServedEpisode | None:
        return self.episodes.by_token(request.path_params["token"])

    async def _page(self, request: Request) -> Response:
        episode = self._episode(request)
        if episode is None:
            return PlainTextResponse("This app link has expired or never existed.", status_code=404)
        base = f"/e/{episode.token}"
        params = request.path_params
        entity, key, tool = params.get("entity"), params.get("key"), params.get("tool")
        if entity is None:
            return self.pages.home(episode, base)
        if tool is not None:
            try:
                submitted = await _form(request) if request.method == "POST" else None
            except BodyTooLargeError as error:
                return client_error(413, str(error))
            return self.pages.action(episode, base, tool, entity, key, submitted, dict(request.query_params))
        if key is not None:
            return self.pages.detail(episode, base, entity, key)
        query = dict(request.query_params)
        offset = query.get("offset", "0")
        if not OFFSET.fullmatch(offset):
            return client_error(400, f"offset must be a whole number of at most {OFFSET_DIGITS} digits (0-9)")
        return self.pages.listing(episode, base, entity, query)

    async def _static(self, request: Request) -> Response:
        # The same files for every episode, so a page that outlives its episode still gets its icon and styles.
        if "\x00" in request.path_params["path"]:
            return client_error(404, "no such static file")
        name = posixpath.normpath(request.path_params["path"])
        data = self.static.get(name)
        if data is None:
            return PlainTextResponse("not found", status_code=404)
        media_type = mimetypes.guess_type(name)[0] or "text/plain"
        # Pages come and go with every click; their styles, script and icon need not be fetched each time.
        return Response(data, media_type=media_type, headers={"Cache-Control": "private, max-age=3600"})

    async def _root(self, request: Request) -> Response:
        return HTMLResponse(f"<h1>{self.pages.spec.title}</h1><p>Open the link of an episode.</p>")

    def routes(self) -> list[Route]:
        page_methods = ["GET"]
        form_methods = ["GET", "POST"]
        return [
            Route("/", self._root),
            Route("/e/{token}/", self._page, methods=page_methods),
            Route("/e/{token}/static/{path:path}", self._static, methods=page_methods),
            Route("/e/{token}/{entity}/", self._page, methods=page_methods),
            Route("/e/{token}/{entity}/new/{tool}", self._page, methods=form_methods),
            Route("/e/{token}/{entity}/{key}", self._page, methods=page_methods),
            Route("/e/{token}/{entity}/{key}/do/{tool}", self._page, methods=form_methods),
        ]

    def app(self) -> Starlette:
        return Starlette(routes=self.routes())


class AppServer(AppSite):
    """One package's app (web or phone) for many isolated episodes, with the harness's state API."""

    def __init__(
        self,
        package: EnvPackage,
        kind: AppKind,
        token: str | None = None,
        **limits: Unpack[StoreLimits],
    ) -> None:
        self.package = package
        self.kind = kind
        self.token = token or secrets.token_urlsafe(24)
        spec, assets = load_app(package.files, kind)
        episodes = EpisodeStore(package.env, **limits)
        templates = app_templates(asset_loader(assets, kind))
        super().__init__(package.env, spec, templates, static_files(assets, kind), episodes)
        self.harness = Harness(package, self.episodes, kind)

    def app(self) -> Starlette:
        return Starlette(routes=[*self.routes(), *harness_routes(self.harness, self.token)])


async def _form(request: Request) -> dict[str, str]:
    """An urlencoded form body (the apps post nothing else); the last value of a repeated name wins.

    Over FORM_LIMIT it is refused whole (BodyTooLargeError), never cut: a value cut short would be stored."""
    body = await read_body(request, FORM_LIMIT)
    return dict(parse_qsl(body.decode("utf-8", errors="replace"), keep_blank_values=True))
