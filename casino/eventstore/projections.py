"""Projections registry (filled in by the foundation work)."""
