"""Stage 1: spec text -> the typed model (grammar, transformer, checks)."""
