from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "jackpots"
