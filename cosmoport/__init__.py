"""The ``cosmoport`` command line: one entry point whose subcommands live in the packages."""
