"""Stage `package`: assemble the environment package from the other stages' artifacts."""
