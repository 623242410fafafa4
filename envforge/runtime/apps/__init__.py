"""The web and phone apps over an environment's sessions: pages for people and agents, a state API for harnesses.

Where each part of a screen lives, so a new screen type is a change in each of these:

- what it shows: a model in `envforge/ir/apps.py` (`ListScreen`, `DetailScreen`, `ActionForm`, all in `AppSpec`),
  derived from the blueprint and the tool graph in `envforge/stages/apps/spec.py`;
- its URL: a route in `server.py` (`AppSite.routes`), dispatched by `AppSite._page`;
- its page: a `Pages` method in `pages.py` that calls the tools and renders the template with its context; `forms.py`
  reads submitted forms and search queries into tool arguments;
- its markup: `assets/web/<screen>.html` and `assets/phone/<screen>.html`, each extending its app's `base.html`;
  blocks both apps render alike are macros in `assets/shared/_ui.html`, blocks one app renders twice are macros of
  that app (`web/_table.html`, `phone/_cards.html`);
- its styles: each app's `assets/<app>/static/app.css`, linked after the rules both share in
  `assets/shared/static/shared.css`; the `apps` stage (`envforge/stages/apps/stage.py`) copies every asset file into
  each package's `apps/`, and pyproject's package-data globs ship them;
- its UI tasks: `envforge/stages/uitasks/paths.py` walks golden paths through it by `data-testid`, on the page model
  of `envforge/stages/uitasks/http_page.py` (which knows links, form buttons and `<summary>` toggles);
- its checks: `envforge/validators/app_reachability.py` crawls every list's search controls and every action's form;
  `tests/runtime/apps/test_templates.py` renders it for every shipped domain, with contexts built as `pages.py` does.
"""
