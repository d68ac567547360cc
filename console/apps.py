from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    name = "console"
    label = "console"
    verbose_name = "Staff console"

    def ready(self) -> None:
        # Each app's console.py registers its navigation, task providers and pages (as the
        # admin site finds admin.py): imported here, after every app is loaded.
        from django.utils.module_loading import autodiscover_modules

        import console.casino_tasks  # noqa: F401  the casino layer's own (role grants)
        from console import casino_history, event_log_pages, staff_pages  # noqa: F401  compliance's pages, the casino's sentences

        autodiscover_modules("console")

        from casino.idempotency import expire_also
        from console.models import FormSubmission

        # the form keys expire with the API's idempotency keys (the casino app's beat task)
        expire_also("console_forms", FormSubmission.delete_older_than)
