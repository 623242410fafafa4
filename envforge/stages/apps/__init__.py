"""The `apps` stage: the web and phone apps over an environment's state."""
