"""Appends that share commits, per-stream chains and sealed blocks (DESIGN §3).

Until now ``casino_event_append`` held one global lock from the append to the end of its
commit, so that positions were gapless in commit order and each event could link to the
one before it in the whole log. Concurrent writers then queued behind each other's disk
flush and could not share a commit.

From this migration on:

* **Positions** come from the appending transaction's own id: ``xid << 16`` plus the
  event's place in that transaction (at most 65,536 events a transaction). No lock is
  needed to take one, and every position of a transaction still in flight is above
  ``pg_snapshot_xmin(pg_current_snapshot()) << 16``; a reader that reads only below that
  line (``casino.eventstore.store.SETTLED``) sees a prefix of the log that can never grow
  behind it, so it never skips an event. Positions are no longer gapless.
* **Each stream is chained by version**: an event's ``prev_hash`` is the hash of the
  stream's previous event (the genesis hash for version 1). ``(stream_id, version)``
  stays unique, so two writers racing for a version get one success and one conflict.
* The whole log is **sealed in blocks** (``casino_event_seal``, a Merkle root over each
  block of positions, each seal chained to the one before), by a beat task and on demand;
  events recorded under the old global chain are sealed here as one ``legacy-chain``
  block, and ``verify_events`` checks them by that chain.
* Appends take a *shared* advisory lock (which never blocks another append), so that a
  projection rebuild can still stop every append by taking it exclusively.

SQLSTATEs raised by the function: CE409 stale expected version (DETAIL: the stream's
version), CE200 idempotent replay, CE408 the stream's previous event was recorded by a
transaction that began after this one (retry in a new transaction: it will get a larger
id), CE413 more than 65,536 events in one transaction.
"""

import hashlib

from django.db import migrations, models

# casino.eventstore.store.APPEND_LOCK_KEY, frozen here as a migration must be.
APPEND_LOCK_KEY = 4846246248338900310
GENESIS = "0" * 64

PG_FUNCTION = f"""
DROP FUNCTION casino_event_append(text, text, integer, uuid[], text[], integer[], text[],
                                  text, timestamptz, text);
CREATE FUNCTION casino_event_append(
    p_stream_type text, p_stream_id text, p_expected integer, p_event_ids uuid[],
    p_types text[], p_schema_versions integer[], p_data text[], p_metadata text,
    p_recorded_at timestamptz, p_recorded_text text, p_idempotent boolean)
RETURNS TABLE (out_position bigint, out_prev_hash varchar, out_hash varchar)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    v_base bigint;
    v_first bigint;
    v_prev varchar;
    v_prev_position bigint;
    v_version integer;
    v_n integer := array_length(p_types, 1);
    v_prevs varchar[] := '{{}}';
    v_hashes varchar[] := '{{}}';
BEGIN
    PERFORM pg_advisory_xact_lock_shared({APPEND_LOCK_KEY});
    -- Only an idempotent append (ids derived from its key) can be a replay; fresh random
    -- ids are also guarded by the unique constraint on event_id.
    IF p_idempotent AND EXISTS (SELECT 1 FROM casino_event WHERE event_id = p_event_ids[1])
    THEN
        RAISE EXCEPTION USING ERRCODE = 'CE200', MESSAGE = 'idempotent replay';
    END IF;
    SELECT version, hash, position INTO v_version, v_prev, v_prev_position
        FROM casino_event WHERE stream_id = p_stream_id ORDER BY version DESC LIMIT 1;
    v_version := coalesce(v_version, 0);
    IF v_version <> p_expected THEN
        RAISE EXCEPTION USING ERRCODE = 'CE409', MESSAGE = 'stream_version_conflict',
            DETAIL = v_version::text;
    END IF;
    v_prev := coalesce(v_prev, repeat('0', 64));
    v_base := (pg_current_xact_id()::text::bigint) << 16;
    IF v_prev_position IS NOT NULL AND v_prev_position >= v_base + 65536 THEN
        RAISE EXCEPTION USING ERRCODE = 'CE408', MESSAGE = 'stream_order_retry';
    END IF;
    SELECT coalesce(max(position) + 1, v_base) INTO v_first FROM casino_event
        WHERE position >= v_base AND position < v_base + 65536;
    IF v_first + v_n > v_base + 65536 THEN
        RAISE EXCEPTION USING ERRCODE = 'CE413', MESSAGE = 'too_many_events_in_transaction';
    END IF;
    -- The stream's chain, event by event (each hash covers the one before) ...
    FOR i IN 1 .. v_n LOOP
        v_prevs[i] := v_prev;
        v_prev := encode(sha256(convert_to(
            v_prev || E'\\n' || '[' || (v_first + i - 1) || ',"' || p_event_ids[i] || '","'
            || p_stream_type || '","' || p_stream_id || '",' || (p_expected + i) || ',"'
            || p_types[i] || '",' || p_schema_versions[i] || ',"' || p_recorded_text
            || '"]' || E'\\n' || p_data[i] || E'\\n' || p_metadata, 'UTF8')), 'hex');
        v_hashes[i] := v_prev;
    END LOOP;
    -- ... then every row in one INSERT, the metadata parsed once.
    INSERT INTO casino_event (position, event_id, stream_type, stream_id, version,
        type, schema_version, data, metadata, recorded_at, prev_hash, hash)
    SELECT v_first + u.i - 1, u.id, p_stream_type, p_stream_id, p_expected + u.i::integer,
        u.t, u.sv, u.d::jsonb, m.meta, p_recorded_at, u.p, u.h
    FROM unnest(p_event_ids, p_types, p_schema_versions, p_data, v_prevs, v_hashes)
         WITH ORDINALITY AS u(id, t, sv, d, p, h, i),
         (SELECT p_metadata::jsonb AS meta) AS m;
    RETURN QUERY SELECT v_first + g - 1, v_prevs[g], v_hashes[g]
        FROM generate_series(1, v_n) AS g;
END;
$fn$;
"""

PG_SEAL_TRIGGERS = """
CREATE TRIGGER casino_event_seal_no_update_delete BEFORE UPDATE OR DELETE
    ON casino_event_seal FOR EACH ROW EXECUTE FUNCTION casino_event_refuse_change();
CREATE TRIGGER casino_event_seal_no_truncate BEFORE TRUNCATE ON casino_event_seal
    FOR EACH STATEMENT EXECUTE FUNCTION casino_event_refuse_change();
"""
SQLITE_SEAL_TRIGGERS = [
    "CREATE TRIGGER casino_event_seal_no_update BEFORE UPDATE ON casino_event_seal "
    "BEGIN SELECT RAISE(ABORT, 'casino_event_seal is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_event_seal_no_delete BEFORE DELETE ON casino_event_seal "
    "BEGIN SELECT RAISE(ABORT, 'casino_event_seal is append-only: DELETE refused'); END;",
]


def _merkle_root(hashes):
    """Frozen copy of casino.eventstore.seals.merkle_root (a migration must not import
    the code it migrates for)."""
    level = [hashlib.sha256(b"\x00" + bytes.fromhex(h)).digest() for h in hashes]
    if not level:
        return GENESIS
    while len(level) > 1:
        nxt = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest()
               for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0].hex()


def _seal_text(seq, kind, first, last, count, root, prev, sealed_at):
    return (f"{seq}\n{kind}\n{first}\n{last}\n{count}\n{root}\n{prev}\n"
            f"{sealed_at.strftime('%Y-%m-%dT%H:%M:%S.%fZ')}")


def install(apps, schema_editor):
    from datetime import UTC, datetime

    conn = schema_editor.connection
    if conn.vendor == "postgresql":
        schema_editor.execute(PG_FUNCTION)
        schema_editor.execute(PG_SEAL_TRIGGERS)
    else:
        for sql in SQLITE_SEAL_TRIGGERS:
            schema_editor.execute(sql)
    # The events already recorded were chained globally: seal them as one block that
    # verify_events checks by that chain.
    with conn.cursor() as cur:
        cur.execute("SELECT position, hash FROM casino_event ORDER BY position")
        rows = cur.fetchall()
        if not rows:
            return
        root = _merkle_root([h for _, h in rows])
        now = datetime.now(UTC)
        kind, first, last = "legacy-chain", rows[0][0], rows[-1][0]
        seal_hash = hashlib.sha256(_seal_text(1, kind, first, last, len(rows), root,
                                              GENESIS, now).encode()).hexdigest()
        cur.execute("INSERT INTO casino_event_seal (seq, kind, first_position, last_position,"
                    " event_count, merkle_root, prev_seal_hash, seal_hash, sealed_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [1, kind, first, last, len(rows), root, GENESIS, seal_hash,
                     conn.ops.adapt_datetimefield_value(now)])


def remove(apps, schema_editor):
    raise RuntimeError("positions and per-stream chains cannot be turned back into one "
                       "global chain")


class Migration(migrations.Migration):
    dependencies = [("casino", "0005_staff_scope_and_role_grants")]
    operations = [
        migrations.CreateModel(
            name="EventSeal",
            fields=[
                ("seq", models.PositiveIntegerField(primary_key=True, serialize=False)),
                ("kind", models.CharField(max_length=20)),
                ("first_position", models.BigIntegerField()),
                ("last_position", models.BigIntegerField(unique=True)),
                ("event_count", models.PositiveIntegerField()),
                ("merkle_root", models.CharField(max_length=64)),
                ("prev_seal_hash", models.CharField(max_length=64)),
                ("seal_hash", models.CharField(max_length=64)),
                ("sealed_at", models.DateTimeField()),
            ],
            options={"db_table": "casino_event_seal", "ordering": ["seq"]},
        ),
        migrations.RunPython(install, remove),
    ]
