from django.apps import AppConfig


class FinanceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "finance"

    def ready(self) -> None:
        from casino.eventstore.store import register_stream_type

        # the read models register themselves with the event store's projections
        from finance import projections  # noqa: F401

        register_stream_type("finance_table_day")
        register_stream_type("finance_gaming_day")
