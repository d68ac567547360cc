"""tables's console pages (console.registry.page)."""
