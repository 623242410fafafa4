"""The generation DAG: stages over typed artifacts, cached and resumable."""
