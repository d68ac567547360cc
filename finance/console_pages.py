"""finance's console pages (console.registry.page)."""
