"""tables's "waiting for me" task providers and navigation (console.registry)."""
