"""The `envforge` command line."""
