from django.apps import AppConfig


class PokerFloorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "poker_floor"

    def ready(self) -> None:
        from casino.eventstore.store import register_stream_type
        from poker_floor import projections  # noqa: F401  registers the read models

        register_stream_type("waitlist")
        # a seat opened at a poker table (a player left, the table opened) is offered to
        # its game's list once the append commits
        from casino.eventstore.store import register_append_hooks
        from poker_floor import hooks

        register_append_hooks(after_commit=hooks.offer_opened_seats)
        from poker_floor import feed  # noqa: F401  the feed's cache hook, the board's lists
