"""Read-only admin views of the tables app. Every change goes through the API and its
services (events); the admin shows the read models and each one's event history."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from casino.admin import ReadOnlyAdmin
from casino.domain.wall_clock import format_wall_clock
from casino.eventstore.store import read_stream
from tables.domain.banked.visibility import Audience
from tables.models import Deck, DeckStep, GameTable, Round, RulesSubmission, TableResult
from tables.services import banked


def _history(obj: Any) -> str:
    """The stream's events in order. A house-banked round's are shown as the audit
    audience may see them (tables.domain.banked.visibility): while the round is in play
    the dealer's face-down cards and a dealt deck are left out of the deal."""
    events = read_stream(obj.stream_id)
    if not events:
        return "—"
    shown = banked.round_events_view(obj.stream_id, events, Audience.AUDIT)
    rows = format_html_join(
        "", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
        ((e.version, format_wall_clock(e.recorded_at,
                                       time_zone=timezone.get_current_timezone_name()), e.type,
          e.metadata.get("actor", ""), json.dumps(data, sort_keys=True)[:300])
         for e, data in shown))
    return format_html("<table><thead><tr><th>v</th><th>recorded</th><th>event</th>"
                       "<th>by</th><th>data</th></tr></thead><tbody>{}</tbody></table>", rows)


class HistoryAdmin(ReadOnlyAdmin):
    """Read-only, with the stream's events in order on the detail page."""

    def event_history(self, obj: Any) -> str:
        return _history(obj)

    event_history.short_description = "Event history"  # type: ignore[attr-defined]

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields] + ["event_history"]


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(HistoryAdmin):
    list_display = ("game", "version_number", "state", "property", "effective_at",
                    "approved_by")
    list_filter = ("state", "game")


@admin.register(GameTable)
class GameTableAdmin(HistoryAdmin):
    list_display = ("name", "game", "status", "positions", "dealing_method", "shuffler",
                    "dealer", "rounds_played")
    list_filter = ("status", "game")
    search_fields = ("name",)


class DeckStepInline(admin.TabularInline):
    model = DeckStep
    extra = 0
    can_delete = False
    fields = ("at", "step", "actor", "role", "credential_number", "gaming_day", "details")
    readonly_fields = fields

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Deck)
class DeckAdmin(HistoryAdmin):
    list_display = ("id", "back_colour", "batch", "table", "state", "change_due", "deadline_at",
                    "rounds_since_count")
    list_filter = ("state", "change_due", "back_colour")
    inlines = [DeckStepInline]


@admin.register(Round)
class RoundAdmin(HistoryAdmin):
    property_path = "table__property"
    list_display = ("table", "number", "state", "deck", "rules_version_number", "opened_at")
    list_filter = ("state",)


@admin.register(TableResult)
class TableResultAdmin(ReadOnlyAdmin):
    """Table results of house-banked rounds per gaming day and wager type (a projection)."""

    money_fields = ("wagered", "returned", "house_win")  # integer cents

    list_display = ("gaming_day", "table", "wager", "wagered", "returned", "house_win",
                    "rounds")
    list_filter = ("gaming_day", "wager")
    date_hierarchy = "gaming_day"
