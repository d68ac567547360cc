from django.apps import AppConfig


class PokerRoomConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "poker_room"

    def ready(self) -> None:
        # The one poker Rules Submission schema is ours; tables validates every poker
        # submission through it without importing this app (DESIGN §2, layers).
        from poker_room.domain.rules_schema import example_poker, validate_poker
        from tables.domain.catalogue import Family
        from tables.domain.rules_options import Schema, schema_register

        schema_register(Family.POKER, Schema(validate_poker, example_poker))
        from casino.eventstore.store import register_stream_type
        from poker_room import projections  # noqa: F401  registers the read models

        register_stream_type("poker_table")
        from casino.eventstore.selectors import register_event_view
        from poker_room.services.hands import audit_event_view

        # The event log shows a poker hand's cards only once it is over (tables' view of
        # the other rounds is kept: ours hands them back).
        register_event_view("round", audit_event_view)
