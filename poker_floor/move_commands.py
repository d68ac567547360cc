"""The poker floor's commands, each declared once (casino.declared)."""

from __future__ import annotations
