"""The Celery app. Tasks take ids, are safe to run twice, and are queued on commit."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The worker's and the beat's heartbeats, which /health/ready reads (casino.heartbeats).
from casino import heartbeats  # noqa: E402

heartbeats.connect_signals()
