"""Admin: everything is read-only to everyone, superusers included.

Events and ledgers: no one edits the record (DESIGN §3). Staff, roles, credentials and
the property: they change only through the staff services, each change an event with a
second person's approval where the rules ask for one (issue 11) — the API under
``/api/v1/staff/``. The admin shows them, with the pending role grants.

No page of it changes anything or shows a secret (issue 35): its pages carry no form that
posts (``casino/templates/casino/admin/``), a login's password hash is not shown, the
authentication libraries' own admins are replaced (``casino.admin_credentials``), and
its password change is refused (``casino.admin_site``)."""

import json
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin
from django.contrib.auth.models import Group

from casino.models import (
    DailyEventCount,
    Event,
    ProjectionCheckpoint,
    Property,
    RoleGrant,
    StaffProfile,
    StreamSummary,
)
from casino.scoping import EVENTS, GROUP_ONLY, UNSCOPED, admin_rows


class ReadOnlyAdmin(admin.ModelAdmin):
    """No add, change or delete for anyone; viewing needs the model's view permission, and
    lists only the viewer's property's rows (``property_path``, casino.scoping)."""

    property_path: str = "property"
    # Django's list and detail pages wrap everything in a <form method="post">, even
    # read-only: these render the same without it (and without actions or a save row).
    change_list_template = "casino/admin/read_only_change_list.html"
    change_form_template = "casino/admin/read_only_change_form.html"
    view_on_site = False
    #: integer cents in a field not named ``…_cents``: listed as dollars too
    money_fields: tuple[str, ...] = ()

    def get_queryset(self, request: Any) -> Any:
        return admin_rows(super().get_queryset(request), request.user, self.property_path)

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: Any) -> dict:
        return {}

    def get_list_display(self, request: Any) -> Any:
        """A column of cents is shown as dollars under its words (issue 22: no amount
        in cents where a person reads it): ``displayed_cents`` → "Displayed", $6.00."""
        return [dollars_column(name) if isinstance(name, str) and (
            name.endswith("_cents") or name in self.money_fields) else name
            for name in super().get_list_display(request)]


def dollars_column(name: str) -> Any:
    """The list column showing the field ``name`` (integer cents) as dollars."""
    from casino.templatetags.casino_display import dollars

    def column(obj: Any) -> str:
        return dollars(getattr(obj, name))

    column.__name__ = name
    column.short_description = name.removesuffix("_cents").replace("_", " ").capitalize()
    column.admin_order_field = name
    return column


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    property_path = EVENTS
    list_display = ("position", "recorded_at", "stream_type", "stream_id", "version", "type")
    list_filter = ("stream_type", "type")
    search_fields = ("=stream_id", "=event_id", "type")
    ordering = ("-position",)
    show_full_result_count = False
    # ``data`` as the event log's readers may see it (a house-banked round's face-down
    # dealer cards hidden until turned up, DESIGN §2), not the raw column.
    readonly_fields = fields = [f.name if f.name != "data" else "shown_data"
                                for f in Event._meta.fields]

    def shown_data(self, obj: Any) -> Any:
        from casino.eventstore.selectors import shown_data

        return json.dumps(shown_data(obj), sort_keys=True)

    shown_data.short_description = "data"  # type: ignore[attr-defined]


@admin.register(ProjectionCheckpoint)
class ProjectionCheckpointAdmin(ReadOnlyAdmin):
    property_path = UNSCOPED
    list_display = ("name", "position", "updated_at")


@admin.register(StreamSummary)
class StreamSummaryAdmin(ReadOnlyAdmin):
    property_path = GROUP_ONLY
    list_display = ("stream_id", "stream_type", "version", "last_type", "last_recorded_at")
    list_filter = ("stream_type",)
    search_fields = ("=stream_id",)


@admin.register(DailyEventCount)
class DailyEventCountAdmin(ReadOnlyAdmin):
    property_path = GROUP_ONLY
    list_display = ("gaming_day", "stream_type", "event_type", "count")
    list_filter = ("gaming_day", "stream_type")


@admin.register(Property)
class PropertyAdmin(ReadOnlyAdmin):
    property_path = "pk"
    list_display = ("name", "licence_number", "time_zone", "gaming_day_start_hour")


class StaffProfileInline(admin.StackedInline):
    model = StaffProfile
    can_delete = False
    extra = 0
    fields = readonly_fields = ("credential_number", "property", "display_name", "group_wide")

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


User = get_user_model()
admin.site.unregister(User)
admin.site.unregister(Group)


@admin.register(User)
class StaffUserAdmin(ReadOnlyAdmin):
    """Users with their Board credential; roles are the groups. Read-only: enrol, grant,
    revoke, deactivate and reset through the staff API, which records each as an event.

    Not Django's ``UserAdmin``: it shows the password's hash (algorithm, iterations and
    the start of the salt) and has a page to set a password (``<id>/password/``). The
    fields here are named one by one, the password not among them."""

    inlines = (StaffProfileInline,)
    list_display = ("username", "first_name", "last_name", "is_active", "roles")
    list_filter = ("is_active", "groups")
    search_fields = ("username", "first_name", "last_name", "staff__credential_number")
    ordering = ("username",)
    fields = readonly_fields = ("username", "first_name", "last_name", "email", "is_active",
                                "is_staff", "is_superuser", "roles", "last_login",
                                "date_joined")
    property_path = "staff__property"

    @admin.display(description="roles")
    def roles(self, obj: Any) -> str:
        return ", ".join(obj.groups.values_list("name", flat=True))


@admin.register(Group)
class RoleGroupAdmin(ReadOnlyAdmin, GroupAdmin):
    """The role groups (one per role); membership changes only through role grants."""

    property_path = UNSCOPED


@admin.register(StaffProfile)
class StaffProfileAdmin(ReadOnlyAdmin):
    list_display = ("user", "credential_number", "property", "display_name", "group_wide")
    search_fields = ("credential_number", "user__username", "display_name")
    ordering = ("credential_number",)


@admin.register(RoleGrant)
class RoleGrantAdmin(ReadOnlyAdmin):
    list_display = ("staff", "role", "state", "requested_by", "requested_at", "decided_by",
                    "decided_at")
    list_filter = ("state", "role")


# The home page without "Recent actions" (nothing is done here; an old entry could name a
# token), and the authentication libraries' models replaced read-only (issue 35): last,
# as that module builds on ReadOnlyAdmin above.
admin.site.index_template = "casino/admin/index.html"

import casino.admin_credentials
import casino.admin_site  # noqa: F401  (its system check)
