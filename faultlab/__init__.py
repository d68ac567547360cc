"""The fault harness (issue 26): a cluster on one machine — a PostgreSQL primary and a
synchronous standby, a Redis, two application hosts each with gunicorn and a Celery
worker, one beat — in network namespaces, faults injected while eight terminals deal
hands and banked rounds through HTTP with idempotency keys, and the checks that no
acknowledged command was lost or recorded twice. Nothing here runs in production: the
``bench_faults`` command and the ``faults`` tests drive it."""
