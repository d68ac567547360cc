"""Signed digests of the log's newest seal, kept outside the database (DESIGN §3, "Digests
kept outside the database"). The stream chains and the seals catch an event changed or
removed in place; they cannot see events deleted or rewritten *and the seals after them
made again*. These tests do that as the database owner could (the append-only triggers
lifted) and show that the seals catch the first step and the digests the second."""

from __future__ import annotations

import base64
import itertools
import json
import stat
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from rest_framework.test import APIClient

from casino import env
from casino.eventstore import digest_keys, digests
from casino.eventstore.canonical import GENESIS_HASH, canonical_json, link_hash
from casino.eventstore.digest_store import DigestExists, digest_store
from casino.eventstore.models import Event, EventSeal
from casino.eventstore.seals import seal_now
from casino.eventstore.store import NewEvent, append
from casino.eventstore.verify import verify_chain
from casino.tasks import digest_write as digest_task
from tests.conftest import suspended_append_only_triggers

PROBLEM = "application/problem+json"
NY = ZoneInfo("America/New_York")
committed = pytest.mark.usefixtures("committed_db")


_streams = itertools.count(1)


def _fill(n: int) -> list:
    """``n`` events, each the first of a new stream."""
    return [append(("test", f"d{next(_streams)}"), 0, [NewEvent("Counted", {"cards": 52})],
                   {"actor": "floor-1"})[0] for _ in range(n)]


def _verify_events_fails(capsys: Any) -> str:
    """Run ``verify_events``; it must exit 1. Returns what it wrote to stderr."""
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_events", "--no-progress")
    assert exit_.value.code == 1
    return capsys.readouterr().err


def _delete_after(position: int) -> None:
    """As the database owner could: lift the triggers and delete the newest events."""
    with suspended_append_only_triggers():
        Event.objects.filter(position__gt=position).delete()


def _rewrite(position: int, data: dict) -> None:
    """As the database owner could: change one event and recompute the hash and
    prev_hash of it and of every later event of its stream, so that the chain links
    again."""
    target = Event.objects.get(position=position)
    prev = (Event.objects.get(stream_id=target.stream_id, version=target.version - 1).hash
            if target.version > 1 else GENESIS_HASH)
    later = list(Event.objects.filter(stream_id=target.stream_id, version__gte=target.version)
                 .order_by("version"))
    with suspended_append_only_triggers():
        for ev in later:
            if ev.position == position:
                ev.data = data
            h = link_hash(prev_hash=prev, position=ev.position, event_id=str(ev.event_id),
                          stream_type=ev.stream_type, stream_id=ev.stream_id,
                          version=ev.version, type=ev.type, schema_version=ev.schema_version,
                          data_json=canonical_json(ev.data),
                          metadata_json=canonical_json(ev.metadata),
                          recorded_at=ev.recorded_at)
            Event.objects.filter(position=ev.position).update(data=ev.data, prev_hash=prev,
                                                              hash=h)
            prev = h


def _reseal_after(seq: int, *, block: int = 3) -> None:
    """As the database owner could: drop the seals after ``seq`` and seal the log again
    as it now stands (blocks of ``block`` events, as the tests made them)."""
    with suspended_append_only_triggers():
        EventSeal.objects.filter(seq__gt=seq).delete()
    seal_now(block=block)


def _stored(reason: str) -> list[dict]:
    return [e.digest for e in digests.digests_list() if e.digest["reason"] == reason]


def _public_pem(key: Ed25519PrivateKey, path: Path) -> Path:
    path.write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return path


# --- writing, signing, the store ------------------------------------------------------

@committed
def test_a_digest_is_signed_verifies_and_its_file_is_never_replaced(settings) -> None:  # noqa: ANN001
    """DESIGN §3: a digest of the head, signed, goes to an append-only store outside
    the database; it verifies with the public key alone, and its file is read-only and
    cannot be written again under the same name."""
    rows = _fill(3)
    digest = digests.digest_write(digests.ON_DEMAND)
    seal = EventSeal.objects.get()  # the digest sealed the log first, and signs that seal
    assert (seal.first_position, seal.last_position, seal.event_count) == (
        rows[0].position, rows[-1].position, 3)
    assert (digest["position"], digest["hash"]) == (rows[-1].position, seal.seal_hash)
    assert digest["reason"] == "on_demand" and digest["gaming_day"] is None
    assert digests.digest_check(digest) is None
    report = digests.verify_digests()
    assert (report.ok, report.checked, report.total) == (True, 1, 1)

    # A copy verifies elsewhere with the published PEM alone.
    info = digests.public_key_info()
    public = serialization.load_pem_public_key(info["public_key_pem"].encode())
    body = {k: v for k, v in digest.items() if k != "signature"}
    public.verify(base64.b64decode(digest["signature"]), canonical_json(body).encode())
    assert digest["key_id"] == info["key_id"] and len(info["key_id"]) == 16

    path = Path(settings.DIGEST_DIR) / digests.digest_name(digest)
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    before = path.read_bytes()
    with pytest.raises(DigestExists):
        digest_store().create(path.name, b"{}")
    assert path.read_bytes() == before
    assert json.loads(before) == digest


@committed
def test_the_generated_signing_key_is_kept_once_and_private(settings, tmp_path) -> None:  # noqa: ANN001
    """DESIGN §3: without DIGEST_SIGNING_KEY_FILE a key is generated once under VAR_DIR,
    readable by its owner only, and used for every later digest."""
    settings.VAR_DIR = tmp_path
    settings.DIGEST_SIGNING_KEY_FILE = None
    first = digests.digest_write()
    key_file = tmp_path / digest_keys.DEFAULT_KEY_NAME
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    pem = key_file.read_bytes()
    _fill(1)
    second = digests.digest_write()
    assert key_file.read_bytes() == pem and first["key_id"] == second["key_id"]


def test_a_key_file_setting_that_names_no_file_stops_start_up(monkeypatch, tmp_path) -> None:  # noqa: ANN001
    """Configuration is strict: a key path that is not a file is refused by name."""
    monkeypatch.setenv("DIGEST_SIGNING_KEY_FILE", str(tmp_path / "missing.pem"))
    with pytest.raises(ImproperlyConfigured, match="DIGEST_SIGNING_KEY_FILE"):
        env.env_file("DIGEST_SIGNING_KEY_FILE")
    monkeypatch.setenv("DIGEST_SIGNING_KEY_FILE", "")
    assert env.env_file("DIGEST_SIGNING_KEY_FILE") is None


# --- what verify_events catches -----------------------------------------------------------

@committed
def test_a_deleted_tail_is_caught_by_the_seal_and_once_resealed_by_the_digest(capsys) -> None:  # noqa: ANN001
    """DESIGN §3: the newest events deleted with the triggers lifted leave every stream's
    chain linking, but not the seal over them; made again, the seals link too, and
    verify_events names the first digest that vouched for a longer log."""
    rows = _fill(3)
    kept = digests.digest_write(digests.PERIODIC)
    rows += _fill(3)
    lost = digests.digest_write(digests.PERIODIC)
    _delete_after(rows[3].position)
    report = verify_chain()
    assert (report.ok, report.first_bad_position, report.first_bad_seal) == (False, None, 2)
    _reseal_after(1)
    assert verify_chain().ok is True  # chains and seals alone see nothing wrong now
    err = _verify_events_fails(capsys)
    assert digests.digest_name(lost) in err and digests.digest_name(kept) not in err
    assert (f"restored to before digest {digests.digest_name(lost)} at position "
            f"{rows[5].position}: the log's seals end at position {rows[3].position} "
            "(1 of 2 digests before it match)") in err
    report = digests.verify_digests()
    assert (report.ok, report.checked, report.first_bad) == (False, 1,
                                                              digests.digest_name(lost))


@committed
def test_a_rewritten_history_is_caught_by_the_seal_and_once_resealed_by_the_digest(capsys) -> None:  # noqa: ANN001
    """DESIGN §3: an event changed and its stream's later hashes recomputed links again,
    but its seal's Merkle root no longer matches; with the seals made again the digests
    still hold the old seal hashes, and the first of them is named."""
    rows = _fill(3)
    first = digests.digest_write(digests.PERIODIC)
    rows += _fill(3)
    second = digests.digest_write(digests.PERIODIC)
    _rewrite(rows[1].position, {"cards": 51})
    assert Event.objects.get(position=rows[1].position).data == {"cards": 51}
    report = verify_chain()
    assert (report.ok, report.first_bad_position, report.first_bad_seal) == (False, None, 1)
    _reseal_after(0)
    assert verify_chain().ok is True  # recomputed: every link and root matches again
    err = _verify_events_fails(capsys)
    assert digests.digest_name(first) in err and digests.digest_name(second) not in err
    assert f"history rewritten at or before position {rows[2].position}" in err


@committed
def test_a_rewrite_after_an_older_digest_names_the_newer_one(capsys) -> None:  # noqa: ANN001
    """DESIGN §3: digests are checked oldest first and the first mismatch is named; a
    rewrite after the older digest's seal leaves that digest matching."""
    rows = _fill(3)
    digests.digest_write(digests.PERIODIC)
    rows += _fill(3)
    newer = digests.digest_write(digests.PERIODIC)
    _rewrite(rows[4].position, {"cards": 50})
    _reseal_after(1)
    err = _verify_events_fails(capsys)
    assert f"digest {digests.digest_name(newer)} does not match" in err
    assert f"history rewritten at or before position {rows[5].position}" in err


@committed
def test_a_changed_seal_is_named_by_verify_events(capsys) -> None:  # noqa: ANN001
    """DESIGN §3: a seal is chained to the one before and its hash covers its root; one
    changed in place is named by number, and the seal after it no longer links."""
    _fill(3)
    seal_now(block=3)
    _fill(3)
    seal_now(block=3)
    with suspended_append_only_triggers():
        EventSeal.objects.filter(seq=1).update(merkle_root="f" * 64)
    err = _verify_events_fails(capsys)
    assert "seal 1 broken: its hash does not match its contents" in err


@committed
def test_an_altered_digest_file_fails_its_signature(settings, capsys) -> None:  # noqa: ANN001
    """DESIGN §3: a digest is signed with a key the database does not hold; changing
    its recorded hash (even to one the log has) breaks the signature, and it is named."""
    rows = _fill(3)
    digest = digests.digest_write()
    path = Path(settings.DIGEST_DIR) / digests.digest_name(digest)
    forged = dict(digest, position=rows[1].position, hash=rows[1].hash)
    path.chmod(0o644)
    path.write_text(json.dumps(forged))
    assert digests.digest_check(forged) == "signature does not verify"
    err = _verify_events_fails(capsys)
    assert path.name in err and "signature does not verify" in err


@committed
def test_a_verifying_host_needs_only_the_public_key(settings, tmp_path, capsys) -> None:  # noqa: ANN001
    """DESIGN §3: verification uses DIGEST_PUBLIC_KEY_FILE when set, with no private
    key at hand; another key's public half does not verify, naming both fingerprints."""
    _fill(2)
    digest = digests.digest_write()
    ours = digest_keys.signing_key()
    settings.DIGEST_SIGNING_KEY_FILE = tmp_path / "absent.pem"
    settings.DIGEST_PUBLIC_KEY_FILE = _public_pem(ours, tmp_path / "ours.pub")
    call_command("verify_events", "--no-progress")
    assert "1 digests checked" in capsys.readouterr().out
    settings.DIGEST_PUBLIC_KEY_FILE = _public_pem(Ed25519PrivateKey.generate(),
                                                  tmp_path / "other.pub")
    err = _verify_events_fails(capsys)
    assert f"signed by key {digest['key_id']}" in err and "signature does not verify" in err


@committed
def test_verify_events_counts_the_digests_it_checked(capsys) -> None:  # noqa: ANN001
    """DESIGN §3: exit 0 prints the counts, the newest seal and how many digests matched."""
    _fill(2)
    digests.digest_write()
    digests.digest_write(digests.PERIODIC)
    call_command("verify_events", "--no-progress")
    out = capsys.readouterr().out
    seal = EventSeal.objects.get()
    assert "2 events in 2 streams" in out and seal.seal_hash in out
    assert "1 seals" in out and "0 events not sealed yet" in out and "2 digests checked" in out


@committed
def test_the_digest_write_command_prints_the_digest(capsys) -> None:  # noqa: ANN001
    """DESIGN §3: ``manage.py digest_write`` seals the log and signs the seal on demand."""
    rows = _fill(2)
    call_command("digest_write")
    printed = json.loads(capsys.readouterr().out)
    assert printed["position"] == rows[-1].position and printed["reason"] == "on_demand"
    assert digests.digest_check(printed) is None


# --- the beat task: periodic and gaming-day close -----------------------------------------

def _at(*args: int) -> datetime:
    return datetime(*args, tzinfo=NY)


@committed
def test_the_task_twice_with_no_new_events_writes_one_periodic_digest(settings) -> None:  # noqa: ANN001
    """DESIGN §3, §5 (tasks safe to run twice): a head that has not moved is not signed
    again; one that has moved is. Beat runs the task every DIGEST_INTERVAL_SECONDS."""
    entry = settings.CELERY_BEAT_SCHEDULE["event-digests"]
    assert (entry["task"], entry["schedule"]) == ("casino.digest_write",
                                                  float(settings.DIGEST_INTERVAL_SECONDS))
    _fill(2)
    first = digest_task.apply(kwargs={"now": _at(2026, 11, 23, 12, 0).isoformat()}).get()
    again = digest_task.apply(kwargs={"now": _at(2026, 11, 23, 12, 5).isoformat()}).get()
    assert again == []
    assert len(_stored("periodic")) == 1
    assert any(name.endswith("-periodic.json") for name in first)
    _fill(1)
    moved = digest_task.apply(kwargs={"now": _at(2026, 11, 23, 12, 10).isoformat()}).get()
    assert [n.rsplit("-", 1)[-1] for n in moved] == ["periodic.json"]


@committed
def test_each_ended_gaming_day_gets_one_close_digest(settings) -> None:  # noqa: ANN001
    """DESIGN §3: a digest at each gaming-day close, once per day, days missed while the
    task did not run included, and never before the day ends (6 a.m. local here)."""
    settings.PROPERTY_TIME_ZONE, settings.GAMING_DAY_START_HOUR = "America/New_York", 6
    _fill(1)

    def closes() -> list[str]:
        return sorted(d["gaming_day"] for d in _stored("gaming_day_close"))

    digests.write_due(now=_at(2026, 11, 23, 12, 0))  # gaming day 23: day 22 has ended
    assert closes() == ["2026-11-22"]
    digests.write_due(now=_at(2026, 11, 23, 20, 0))
    _fill(1)
    digests.write_due(now=_at(2026, 11, 24, 5, 59))  # still gaming day 23
    assert closes() == ["2026-11-22"]
    written = digests.write_due(now=_at(2026, 11, 24, 6, 0))
    assert closes() == ["2026-11-22", "2026-11-23"]
    assert [d["reason"] for d in written] == ["gaming_day_close"]  # head unmoved: no periodic
    digests.write_due(now=_at(2026, 11, 27, 7, 0))
    digests.write_due(now=_at(2026, 11, 27, 7, 5))
    assert closes() == ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"]
    assert digests.write_due(reason="gaming_day_close", gaming_day=date(2026, 11, 23),
                             now=_at(2026, 11, 27, 8, 0)) == []
    assert digests.verify_digests().ok


# --- the gaming day's report carries its digest -------------------------------------------

@committed
def test_a_gaming_days_report_prints_the_digest_that_anchors_it(settings, demo_property,  # noqa: ANN001
                                                                capsys) -> None:
    """DESIGN §3: the digest leaves the building on each gaming day's report: the day's
    close digest when there is one, else the newest."""
    day = date(2026, 11, 23)
    call_command("card_inventory_report", "--gaming-day", day.isoformat())
    assert json.loads(capsys.readouterr().out)["digest"] is None
    _fill(1)
    newest = digests.digest_write(now=_at(2026, 11, 23, 12, 0))
    call_command("card_inventory_report", "--gaming-day", day.isoformat())
    assert json.loads(capsys.readouterr().out)["digest"] == newest
    tz, hour = demo_property.time_zone, demo_property.gaming_day_start_hour
    settings.PROPERTY_TIME_ZONE, settings.GAMING_DAY_START_HOUR = tz, hour
    digests.write_due(now=datetime(2026, 11, 24, hour, 30, tzinfo=ZoneInfo(tz)))
    _fill(1)
    digests.write_due(now=datetime(2026, 11, 25, hour, 30, tzinfo=ZoneInfo(tz)))
    call_command("card_inventory_report", "--gaming-day", day.isoformat())
    printed = json.loads(capsys.readouterr().out)["digest"]
    assert (printed["reason"], printed["gaming_day"]) == ("gaming_day_close", "2026-11-23")
    assert digests.digest_check(printed) is None


# --- the API -----------------------------------------------------------------------------

def test_compliance_lists_digests_newest_first_and_writes_one(api_as) -> None:  # noqa: ANN001
    """DESIGN §3: compliance reads every digest with the public key (so a copy can be
    verified elsewhere) and can sign the head on demand."""
    officer = api_as("compliance")
    assert officer.get("/api/v1/events/digests/").json()["results"] == []
    made = officer.post("/api/v1/events/digests/")
    assert made.status_code == 201, made.content
    assert made.json()["reason"] == "on_demand"
    again = officer.post("/api/v1/events/digests/").json()
    page = officer.get("/api/v1/events/digests/", {"limit": 1})
    assert page.status_code == 200
    body = page.json()
    assert body["results"] == [again] and body["total"] == 2 and body["next"]
    assert officer.get(body["next"]).json()["results"] == [made.json()]
    public = serialization.load_pem_public_key(body["public_key_pem"].encode())
    signed = {k: v for k, v in again.items() if k != "signature"}
    public.verify(base64.b64decode(again["signature"]), canonical_json(signed).encode())
    assert body["key_id"] == again["key_id"]
    bad = officer.get("/api/v1/events/digests/", {"limit": 0})
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_paging")
    # Today's gaming day is not over: its report carries the newest digest.
    assert officer.get("/api/v1/decks/inventory/").json()["digest"] == again


def test_dealers_are_refused_and_strangers_must_log_in(api_as) -> None:  # noqa: ANN001
    """DESIGN §3: digests are a compliance record; any other role is 403."""
    dealer = api_as("dealer")
    for response in (dealer.get("/api/v1/events/digests/"),
                     dealer.post("/api/v1/events/digests/")):
        assert response.status_code == 403 and response["Content-Type"] == PROBLEM
        assert response.json()["code"] == "role_required"
    anonymous = APIClient().get("/api/v1/events/digests/")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    assert digests.digests_list() == []


def test_a_store_that_cannot_be_used_is_a_503_problem(api_as, settings, tmp_path) -> None:  # noqa: ANN001
    """Never a 500: a digest store that is not a directory is 503
    ``digest_store_unavailable``, for reading and writing alike."""
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    settings.DIGEST_DIR = blocker
    officer = api_as("compliance")
    for response in (officer.get("/api/v1/events/digests/"),
                     officer.post("/api/v1/events/digests/")):
        assert response.status_code == 503 and response["Content-Type"] == PROBLEM
        assert response.json()["code"] == "digest_store_unavailable"
