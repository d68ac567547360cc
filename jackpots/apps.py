from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "jackpots"

    def ready(self) -> None:
        from casino.eventstore.store import register_stream_type

        # the follower registers itself with the event store's projections
        from jackpots import projections  # noqa: F401

        register_stream_type("jackpot_fund")
