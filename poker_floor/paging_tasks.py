"""Paging tasks (poker_floor.paging)."""

from __future__ import annotations
