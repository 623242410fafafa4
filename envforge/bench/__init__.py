"""`envforge bench`: medians and p95s, each beside a naive baseline measured in the same run."""
