"""The inline projections of the list streams (``waitlist-<id>``) into
:mod:`poker_floor.models`. Rows are written with ``QuerySet.update`` and ``create`` (as the
other apps' projections); a rebuild from the events gives the same rows."""

from __future__ import annotations
