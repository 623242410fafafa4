"""Stage `tooltests`: every tool is called with generated valid and invalid arguments before it is admitted."""
