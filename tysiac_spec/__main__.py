"""``python -m tysiac_spec``: the ``tysiac`` command."""

from .cli import main

main(prog_name="tysiac")
