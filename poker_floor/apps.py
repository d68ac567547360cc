from django.apps import AppConfig


class PokerFloorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "poker_floor"

    def ready(self) -> None:
        from casino.eventstore.store import register_stream_type
        from poker_floor import projections  # noqa: F401  registers the read models
        from poker_floor import projections_moves  # noqa: F401  the moves' events

        register_stream_type("waitlist")
