"""Django's own formats for English (``FORMAT_MODULE_PATH``): what the admin and any
date or time a template prints without a filter show — the one way of issue 22."""
