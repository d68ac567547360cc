"""The jackpots' rules as plain Python: the Bad Beat payout's shares and a fund's state
folded from its events."""
