"""The web and phone apps over an environment's sessions: pages for people and agents, a state API for harnesses."""
