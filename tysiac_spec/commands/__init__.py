"""The `tysiac` subcommands, one module each."""
