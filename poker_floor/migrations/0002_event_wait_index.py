"""An index for the estimated wait (poker_floor.wait): the few event types it reads, by
time. Partial, so the rest of the log (every hand's events) neither grows it nor is read:
the estimate's one query is a range scan of the last hours' seat-leavings, moves and table
openings and closings, whatever the age of the tables' streams."""

from django.db import migrations

TYPES = ("PlayerLeft", "PlayerRemoved", "TableOpened", "TableClosed", "PlayerMoved",
         "TableOpenedByLot", "TableBrokenByLot")


def _create(apps, schema_editor):  # noqa: ANN001, ANN201
    # PostgreSQL and SQLite both take a partial index (the same list as
    # poker_floor.domain.wait.EVENT_TYPES, so the query's IN implies the predicate)
    types = ", ".join(f"'{t}'" for t in TYPES)
    schema_editor.execute("CREATE INDEX IF NOT EXISTS casino_event_floor_wait "
                          f"ON casino_event (recorded_at) WHERE type IN ({types})")


def _drop(apps, schema_editor):  # noqa: ANN001, ANN201
    schema_editor.execute("DROP INDEX IF EXISTS casino_event_floor_wait")


class Migration(migrations.Migration):

    dependencies = [
        ("poker_floor", "0001_initial"),
    ]

    operations = [migrations.RunPython(_create, _drop)]
