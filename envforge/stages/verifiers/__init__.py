"""Stage `verifiers`: an executable verifier per task, kept only if it passes the gate."""
