"""`python -m envforge`: the `envforge` command where its script is not on the PATH (a venv not activated)."""

from envforge.cli.app import main

if __name__ == "__main__":
    main()
