"""Hand rankings of chapters 637a.6, 589.6, 671a.6 and 579.6 (pure Python)."""
