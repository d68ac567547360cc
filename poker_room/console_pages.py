"""poker_room's console pages (console.registry.page)."""
