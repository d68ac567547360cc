from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "jackpots"

    def ready(self) -> None:
        # the contributions follower registers itself with the event store's projections
        from jackpots import projections  # noqa: F401
