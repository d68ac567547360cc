"""Admin: staff, roles and the property are managed here; events are shown read-only to
everyone, superusers included (DESIGN §3: no one edits the record)."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from casino.models import (
    DailyEventCount,
    Event,
    ProjectionCheckpoint,
    Property,
    StaffProfile,
    StreamSummary,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """No add, change or delete for anyone; viewing needs the model's view permission."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: Any) -> dict:
        return {}


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("position", "recorded_at", "stream_type", "stream_id", "version", "type")
    list_filter = ("stream_type", "type")
    search_fields = ("=stream_id", "=event_id", "type")
    ordering = ("-position",)
    show_full_result_count = False
    readonly_fields = [f.name for f in Event._meta.fields]


@admin.register(ProjectionCheckpoint)
class ProjectionCheckpointAdmin(ReadOnlyAdmin):
    list_display = ("name", "position", "updated_at")


@admin.register(StreamSummary)
class StreamSummaryAdmin(ReadOnlyAdmin):
    list_display = ("stream_id", "stream_type", "version", "last_type", "last_recorded_at")
    list_filter = ("stream_type",)
    search_fields = ("=stream_id",)


@admin.register(DailyEventCount)
class DailyEventCountAdmin(ReadOnlyAdmin):
    list_display = ("gaming_day", "stream_type", "event_type", "count")
    list_filter = ("gaming_day", "stream_type")


@admin.register(Property)
class PropertyAdmin(admin.ModelAdmin):
    list_display = ("name", "licence_number", "time_zone", "gaming_day_start_hour")


class StaffProfileInline(admin.StackedInline):
    model = StaffProfile
    can_delete = False
    extra = 0


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class StaffUserAdmin(UserAdmin):
    """Users with their Board credential; roles are the groups."""

    inlines = [StaffProfileInline]
    list_display = ("username", "first_name", "last_name", "is_active", "roles")

    @admin.display(description="roles")
    def roles(self, obj: Any) -> str:
        return ", ".join(obj.groups.values_list("name", flat=True))


@admin.register(StaffProfile)
class StaffProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "credential_number", "property", "display_name")
    search_fields = ("credential_number", "user__username", "display_name")
