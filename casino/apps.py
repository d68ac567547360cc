from django.apps import AppConfig
from django.db.models.signals import post_migrate, pre_migrate


class CasinoConfig(AppConfig):
    """The core app: property, gaming day, staff and roles, the event store, money."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "casino"
    verbose_name = "Casino core"

    def ready(self) -> None:
        from casino import roles, staff_guard
        from casino import tasks
        from casino.eventstore import projections  # registers the built-in projections
        from casino.eventstore.store import register_append_hooks, register_stream_type

        # The store runs the inline projections in each append's transaction and wakes
        # the async ones after it commits; the projections queue their catch-up task.
        register_append_hooks(in_transaction=projections.apply_inline,
                              in_transaction_wanted=projections.inline_wanted,
                              after_commit=projections.wake_async)
        projections.set_catch_up_queue(tasks.queue_catch_up)

        # staff: enrolment, roles, credentials, deactivation (casino.services.staff);
        # property: the certificate holder's own record; login: lock-outs, unlocks and
        # tokens (casino.services.logins).
        for stream_type in ("staff", "property", "login"):
            register_stream_type(stream_type)
        # personal_data-<subject>: the erasure of one subject's personal data
        # (casino.personal_data: PersonalDataErased)
        register_stream_type("personal_data")
        # Groups are (re)created after every migrate and flush, so they always exist.
        post_migrate.connect(roles.ensure_role_groups, sender=self)
        # migrate runs without the statement and lock timeouts requests have (issue 26)
        from casino.db_timeouts import lift_for_migrate

        pre_migrate.connect(lift_for_migrate, sender=self, dispatch_uid="casino.lift_timeouts")
        staff_guard.install()
        # every PostgreSQL connection watches for a commit the synchronous standby did not
        # confirm (casino.replication; issue 26, review finding F2)
        from django.db.backends.signals import connection_created

        from casino import replication

        connection_created.connect(replication.install, dispatch_uid="casino.replication")
        from casino.services import logins

        logins.connect_signals()
