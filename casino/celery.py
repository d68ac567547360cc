"""The Celery app. Tasks take ids, are safe to run twice, and are queued on commit."""

import logging
import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

# kombu 5.7's Redis channel must not take a worker down when Redis restarts, nor its
# filesystem transport (the embedded default) hand a worker a half-written message
from casino.broker_patches import mend_filesystem_put, mend_redis_channel_close  # noqa: E402

mend_redis_channel_close()
mend_filesystem_put()

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The worker's and the beat's heartbeats, which /health/ready reads (casino.heartbeats).
from casino import heartbeats  # noqa: E402

heartbeats.connect_signals()


@worker_ready.connect
def _relay_outbox_at_start(sender: object = None, **_: object) -> None:
    """A worker that starts sends the outbox rows left unsent (a process killed before its
    relay thread sent them) without waiting for beat's next sweep (issue 26 item 4)."""
    try:
        app.send_task("casino.outbox_relay")
    except Exception:  # noqa: BLE001  beat's sweep sends them
        logging.getLogger(__name__).warning("could not queue the outbox relay", exc_info=True)
