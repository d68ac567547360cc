"""poker_room's "waiting for me" task providers and navigation (console.registry)."""
