"""Finance's pure rules: a table day's slips and counts, and the reconciliation."""
