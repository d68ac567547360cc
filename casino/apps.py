from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CasinoConfig(AppConfig):
    """The core app: property, gaming day, staff and roles, the event store, money."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "casino"
    verbose_name = "Casino core"

    def ready(self) -> None:
        from casino import roles, staff_guard
        from casino.eventstore import projections  # noqa: F401  registers built-ins
        from casino.eventstore.store import register_stream_type

        # staff: enrolment, roles, credentials, deactivation (casino.services.staff);
        # property: the certificate holder's own record; login: lock-outs, unlocks and
        # tokens (casino.services.logins).
        for stream_type in ("staff", "property", "login"):
            register_stream_type(stream_type)
        # Groups are (re)created after every migrate and flush, so they always exist.
        post_migrate.connect(roles.ensure_role_groups, sender=self)
        staff_guard.install()
        from casino.services import logins

        logins.connect_signals()
