"""The `review` stage: the tasks the package ships, after an LLM review of the gate's accepted tasks, if any."""
