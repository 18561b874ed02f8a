"""The applications built on the toolkit (a layer above engine, bots and scoresheet)."""
