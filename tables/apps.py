from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, decks, Rules Submissions and the rounds of house-banked games."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Tables, decks and Rules Submissions"

    def ready(self) -> None:
        from casino.eventstore.store import register_stream_type
        from tables import projections  # noqa: F401  registers the read models

        for stream_type in projections.STREAM_TYPES:
            register_stream_type(stream_type)
        from casino.eventstore.selectors import register_event_view
        from tables.services.banked import audit_event_view

        # The event log shows a house-banked round's events as audit roles may see them.
        register_event_view("round", audit_event_view)
        from tables import tasks, timers

        # The timers queue these tasks once the deciding transaction commits.
        timers.register_tasks(deck_timer=tasks.deck_timer,
                              rules_take_effect=tasks.rules_take_effect)
        from casino.domain.hands.games import register as register_game
        from tables.domain.hands.checking import BANKED_RANKINGS

        # evaluate_hands (casino) checks Lunar Poker and Hi-Lo hands through the registry.
        for game in BANKED_RANKINGS:
            register_game(game)
