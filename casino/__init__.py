"""Casino table-games back office: the core app and the project package."""

from casino.celery import app as celery_app

__all__ = ["celery_app"]
