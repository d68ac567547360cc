"""The poker floor in the staff console: its pages, tasks and history sentences register
themselves (console.apps imports this module)."""

from __future__ import annotations
