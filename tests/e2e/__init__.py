"""End-to-end tests: each role's main task in Chromium through the console's pages (issue 23)."""
