"""tysiac-spec."""
