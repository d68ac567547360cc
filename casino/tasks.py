"""Core Celery tasks."""

from datetime import date, datetime

from celery import shared_task

from casino import outbox
from casino.eventstore import digests, projections, seals
from casino.eventstore.store import committed_unsettled


_UNSETTLED_RETRY_SECONDS = 1.0


@shared_task(name="casino.run_async_projections", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def run_async_projections() -> dict[str, int]:
    """Catch every async projection up to the head. Safe to run twice: each projection's
    checkpoint is locked and advanced in the transaction that writes its rows. Events
    committed but not yet settled (a transaction begun before them is still open,
    anywhere on the server) are looked for again in a second, rather than left to the
    minute's sweep."""
    done = projections.catch_up_all()
    if committed_unsettled():
        queue_catch_up(_UNSETTLED_RETRY_SECONDS)
    return done


def queue_catch_up(countdown: float) -> None:
    """Queue :func:`run_async_projections` (the waker that ``projections.wake_async``
    calls; wired in ``CasinoConfig.ready()``): from the outbox's relay thread, coalesced,
    never on the appending request's thread (issue 26 item 4; eager: run now)."""
    outbox.send_soon(run_async_projections.name, countdown=countdown)


@shared_task(name="casino.outbox_relay", acks_late=True)
def outbox_relay() -> dict[str, int]:
    """Send the outbox rows that are due (the sweep: rows a killed process left, or whose
    relay thread has not run; beat every 10 s and once at each worker's start). Safe to
    run twice and beside the relay threads: rows are claimed with SKIP LOCKED (PostgreSQL)
    or leased (SQLite), each sent at most once bar a relay dying between its send and its
    delete (:mod:`casino.outbox`). Returns ``{"claimed", "sent", "failed"}``."""
    return outbox.relay_all()


@shared_task(name="casino.digest_write", acks_late=True,
             autoretry_for=(digests.DigestUnavailable,), retry_backoff=True, max_retries=5)
def digest_write(reason: str = "periodic", gaming_day: str | None = None,
                 now: str | None = None) -> list[str]:
    """Sign the log's head into the digest store outside the database (DESIGN §3), and
    close each gaming day that has ended. Safe to run twice: nothing is written while the
    head has not moved since the newest digest, and a day is closed once. ``gaming_day``
    (YYYY-MM-DD) and ``now`` (ISO 8601 with offset) are text, as task arguments are.
    Returns the names of the digests written."""
    written = digests.write_due(
        reason=reason, gaming_day=date.fromisoformat(gaming_day) if gaming_day else None,
        now=datetime.fromisoformat(now) if now else None)
    return [digests.digest_name(d) for d in written]


@shared_task(name="casino.events_seal", acks_late=True, autoretry_for=(Exception,),
             retry_backoff=True, max_retries=5)
def events_seal() -> list[int]:
    """Seal the settled events after the newest seal (DESIGN §3, :mod:`casino.eventstore.
    seals`). Safe to run twice: a second run finds nothing left to seal. Returns the new
    seals' numbers."""
    return seals.seal_now()


@shared_task(name="casino.personal_data_erase_due", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def personal_data_erase_due(now: str | None = None) -> int:
    """Erase the personal data whose retention period has passed (issue 24: a list
    entry's name, phone and e-mail; a High Hand slip's player; a Bad Beat payout's
    payees), each erasure an event (:func:`casino.personal_data.erase_due`). Safe to run
    twice: a key erased is passed over. ``now``: ISO 8601 with offset (a test's clock).
    Returns how many it erased."""
    from casino import personal_data

    return personal_data.erase_due(datetime.fromisoformat(now) if now else None)


@shared_task(name="casino.idempotency_keys_expire", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def idempotency_keys_expire(now: str | None = None) -> dict[str, int]:
    """Delete the API's idempotency keys past their expiry and the console's form keys
    older than ``IDEMPOTENCY_KEY_HOURS`` (:func:`casino.idempotency.keys_expire`). Safe to
    run twice: a second run finds nothing. ``now``: ISO 8601 with offset (a test's
    clock). Returns how many of each it deleted."""
    from casino import idempotency

    return idempotency.keys_expire(datetime.fromisoformat(now) if now else None)
