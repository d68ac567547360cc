"""PostgreSQL: the append as one server-side function (DESIGN §3).

``casino_event_append`` takes the append lock, reads the head and the stream's version,
refuses a stale expected version or a replayed idempotency key, and inserts the events
with their SHA-256 links. Doing this on the server means the lock is held only while
the server works and commits, never across a client round trip.

The link is computed exactly as ``casino.eventstore.canonical.link_hash`` computes it in
Python (used on SQLite and by ``verify_events``), so each checks the other: the head is
the canonical JSON array of the event's fields, which needs no escaping because stream
types, stream ids and event types are restricted to safe characters.

SQLSTATEs raised: CE409 stale expected version (DETAIL: the stream's version),
CE200 idempotent replay (the events are already stored).
"""

from django.db import migrations

# casino.eventstore.store.APPEND_LOCK_KEY, frozen here as a migration must be.
APPEND_LOCK_KEY = 4846246248338900310

PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION casino_event_append(
    p_stream_type text, p_stream_id text, p_expected integer, p_event_ids uuid[],
    p_types text[], p_schema_versions integer[], p_data text[], p_metadata text,
    p_recorded_at timestamptz, p_recorded_text text)
RETURNS TABLE (out_position bigint, out_prev_hash varchar, out_hash varchar)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    v_position bigint;
    v_prev varchar;
    v_version integer;
    v_hash varchar;
BEGIN
    PERFORM pg_advisory_xact_lock({APPEND_LOCK_KEY});
    -- Each statement below takes a fresh snapshot (READ COMMITTED, volatile function),
    -- so it sees every append that committed before the lock was granted.
    IF EXISTS (SELECT 1 FROM casino_event WHERE event_id = p_event_ids[1]) THEN
        RAISE EXCEPTION USING ERRCODE = 'CE200', MESSAGE = 'idempotent replay';
    END IF;
    SELECT coalesce(max(version), 0) INTO v_version FROM casino_event
        WHERE stream_id = p_stream_id;
    IF v_version <> p_expected THEN
        RAISE EXCEPTION USING ERRCODE = 'CE409', MESSAGE = 'stream_version_conflict',
            DETAIL = v_version::text;
    END IF;
    SELECT position, hash INTO v_position, v_prev FROM casino_event
        ORDER BY position DESC LIMIT 1;
    v_position := coalesce(v_position, 0);
    v_prev := coalesce(v_prev, repeat('0', 64));
    FOR i IN 1 .. array_length(p_types, 1) LOOP
        v_position := v_position + 1;
        v_hash := encode(sha256(convert_to(
            v_prev || E'\\n' || '[' || v_position || ',"' || p_event_ids[i] || '","'
            || p_stream_type || '","' || p_stream_id || '",' || (p_expected + i) || ',"'
            || p_types[i] || '",' || p_schema_versions[i] || ',"' || p_recorded_text
            || '"]' || E'\\n' || p_data[i] || E'\\n' || p_metadata, 'UTF8')), 'hex');
        INSERT INTO casino_event (position, event_id, stream_type, stream_id, version,
            type, schema_version, data, metadata, recorded_at, prev_hash, hash)
        VALUES (v_position, p_event_ids[i], p_stream_type, p_stream_id, p_expected + i,
            p_types[i], p_schema_versions[i], p_data[i]::jsonb, p_metadata::jsonb,
            p_recorded_at, v_prev, v_hash);
        out_position := v_position;
        out_prev_hash := v_prev;
        out_hash := v_hash;
        RETURN NEXT;
        v_prev := v_hash;
    END LOOP;
END;
$fn$;
"""
PG_DROP = "DROP FUNCTION IF EXISTS casino_event_append(text, text, integer, uuid[], text[], " \
          "integer[], text[], text, timestamptz, text);"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_FUNCTION)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_DROP)


class Migration(migrations.Migration):
    dependencies = [("casino", "0002_event_append_only_triggers")]
    operations = [migrations.RunPython(install, remove)]
