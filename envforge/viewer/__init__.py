"""`envforge view`: a static HTML site over a package, a rollout run or a suite, for people to look at.

`detect` tells what a path is, `package`, `rollouts` and `suite` gather each kind's pages, `graph` and `charts`
draw the pictures as inline SVG, and `pages` renders the templates shipped in `templates/`. `site` writes the
folder atomically. The site needs no network: styles and scripts are inline, and links are relative, so the
folder can be attached to a CI run as it is.
"""
