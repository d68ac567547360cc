from django.apps import AppConfig


class CasinoConfig(AppConfig):
    """The core app: property, gaming day, staff and roles, the event store, money."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "casino"
    verbose_name = "Casino core"

    def ready(self) -> None:
        from casino.eventstore import projections  # noqa: F401  registers built-in projections
