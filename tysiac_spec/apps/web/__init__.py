"""The web table: ``tysiac serve`` (see :mod:`.protocol` for the wire protocol). Imports nothing."""
