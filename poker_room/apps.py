from django.apps import AppConfig


class PokerRoomConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "poker_room"
