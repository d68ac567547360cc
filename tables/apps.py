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
