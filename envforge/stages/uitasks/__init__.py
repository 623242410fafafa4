"""The `uitasks` stage: every accepted task posed in the web and phone apps, with its golden UI path."""
