"""Make ``casino_event`` append-only for every database user (DESIGN §3).

PostgreSQL: row triggers refuse UPDATE and DELETE, a statement trigger refuses TRUNCATE.
SQLite: triggers refuse UPDATE and DELETE (SQLite has no TRUNCATE).
Only the database owner can get past them, by disabling a trigger; the hash chain
(``manage.py verify_events``) shows any row changed that way.
"""

from django.db import migrations

PG_INSTALL = """
CREATE OR REPLACE FUNCTION casino_event_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING MESSAGE = 'casino_event is append-only: ' || TG_OP || ' refused',
        ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER casino_event_no_update_delete BEFORE UPDATE OR DELETE ON casino_event
    FOR EACH ROW EXECUTE FUNCTION casino_event_refuse_change();
CREATE TRIGGER casino_event_no_truncate BEFORE TRUNCATE ON casino_event
    FOR EACH STATEMENT EXECUTE FUNCTION casino_event_refuse_change();
"""
PG_REMOVE = """
DROP TRIGGER IF EXISTS casino_event_no_truncate ON casino_event;
DROP TRIGGER IF EXISTS casino_event_no_update_delete ON casino_event;
DROP FUNCTION IF EXISTS casino_event_refuse_change();
"""
SQLITE_INSTALL = [
    "CREATE TRIGGER casino_event_no_update BEFORE UPDATE ON casino_event "
    "BEGIN SELECT RAISE(ABORT, 'casino_event is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_event_no_delete BEFORE DELETE ON casino_event "
    "BEGIN SELECT RAISE(ABORT, 'casino_event is append-only: DELETE refused'); END;",
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS casino_event_no_update;",
    "DROP TRIGGER IF EXISTS casino_event_no_delete;",
]


def install(apps, schema_editor):
    conn = schema_editor.connection
    if conn.vendor == "postgresql":
        schema_editor.execute(PG_INSTALL)
    elif conn.vendor == "sqlite":
        for sql in SQLITE_INSTALL:
            schema_editor.execute(sql)
    else:
        raise RuntimeError(f"no append-only triggers for {conn.vendor}")


def remove(apps, schema_editor):
    conn = schema_editor.connection
    for sql in (PG_REMOVE,) if conn.vendor == "postgresql" else SQLITE_REMOVE:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("casino", "0001_initial")]
    operations = [migrations.RunPython(install, remove)]
