from django.apps import AppConfig


class FinanceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "finance"

    def ready(self) -> None:
        from casino.eventstore.store import register_stream_type

        # the read models register themselves with the event store's projections
        from finance import projections  # noqa: F401

        # a poker buy-in paid in cash is a chip sale of the table's day: the poker room
        # records it through us without importing this app
        from finance.services.tray import poker_cash_sale
        from poker_room import chip_sales

        chip_sales.register(poker_cash_sale)
        register_stream_type("finance_table_day")
        register_stream_type("finance_gaming_day")
