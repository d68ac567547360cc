"""jackpots's console pages (console.registry.page)."""
