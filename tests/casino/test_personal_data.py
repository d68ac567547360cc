"""Personal data sealed in the events and erased by destroying its key (issue 24 item 8,
casino.personal_data): the erasure is an event in the subject's own stream, refused
twice, by the wrong role or without a reason; the retention beat task erases what is due,
once; the admin never shows a key."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

import pytest
from django.contrib import admin
from django.core.management import CommandError, call_command

from casino import personal_data
from casino.actors import actor_of, system_actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore.store import read_stream
from casino.models import Event, PersonalDataKey
from casino.roles import RoleRequired
from casino.tasks import personal_data_erase_due

pytestmark = pytest.mark.django_db

SUBJECT = uuid.UUID("11111111-2222-4333-8444-555555555555")
NOON = datetime(2026, 11, 26, 17, 0, tzinfo=timezone.utc)


@pytest.fixture
def sealed(demo_property):  # noqa: ANN001, ANN201
    personal_data.key_create(subject=SUBJECT, property_id=demo_property.pk,
                             kind="list_entry")
    return personal_data.seal(SUBJECT, {"name": "Jo Smith", "phone": "+12155550101"})


@pytest.fixture
def compliance(make_staff):  # noqa: ANN001, ANN201
    return actor_of(make_staff("compliance", username="cora"))


def test_a_sealed_value_opens_under_its_own_key_and_holds_no_detail_in_clear(sealed) -> None:
    assert sealed["subject"] == str(SUBJECT)
    assert "Jo Smith" not in sealed["sealed"] and "5550101" not in sealed["sealed"]
    assert personal_data.unseal(sealed) == {"name": "Jo Smith", "phone": "+12155550101"}


def test_a_sealed_value_copied_under_another_subject_does_not_open(sealed,
                                                                   demo_property) -> None:
    other = uuid.uuid4()
    personal_data.key_create(subject=other, property_id=demo_property.pk,
                             kind="list_entry")
    assert personal_data.unseal({**sealed, "subject": str(other)}) is None


def test_a_value_recorded_before_sealing_is_read_as_it_is() -> None:
    assert personal_data.unseal({"name": "Avery"}) == {"name": "Avery"}


def test_the_erasure_destroys_the_key_and_is_an_event_in_the_subjects_stream(
        sealed, compliance) -> None:
    row = personal_data.personal_data_erase(SUBJECT, actor=compliance,
                                            reason="the player asked")
    key = PersonalDataKey.objects.get(subject=SUBJECT)
    assert (key.key, key.erased_at is not None, row.kind) == (None, True, "list_entry")
    [event] = read_stream(f"personal_data-{SUBJECT}")
    assert (event.stream_type, event.type, event.data) == (
        "personal_data", "PersonalDataErased",
        {"subject": str(SUBJECT), "kind": "list_entry", "reason": "the player asked"})
    assert (event.metadata["actor"], event.metadata["role"]) == ("cora", "compliance")


def test_an_erased_subject_unseals_to_nothing_and_seals_nothing_more(sealed,
                                                                     compliance) -> None:
    personal_data.personal_data_erase(SUBJECT, actor=compliance, reason="asked")
    assert personal_data.unseal(sealed) is None
    with pytest.raises(ConflictError) as refused:
        personal_data.seal(SUBJECT, {"name": "Jo Smith"})
    assert refused.value.code == "personal_data_erased"


def test_a_second_erasure_is_refused_and_appends_nothing(sealed, compliance) -> None:
    personal_data.personal_data_erase(SUBJECT, actor=compliance, reason="asked")
    before = Event.objects.count()
    with pytest.raises(ConflictError) as refused:
        personal_data.personal_data_erase(SUBJECT, actor=compliance, reason="asked again")
    assert (refused.value.code, Event.objects.count()) == ("personal_data_erased", before)


def test_only_compliance_erases_on_a_request(sealed, make_staff) -> None:
    floor = actor_of(make_staff("floorperson"))
    before = Event.objects.count()
    with pytest.raises(RoleRequired):
        personal_data.personal_data_erase(SUBJECT, actor=floor, reason="asked")
    assert Event.objects.count() == before
    assert PersonalDataKey.objects.get(subject=SUBJECT).key is not None


@pytest.mark.parametrize("reason", ["", "   ", None, "x" * 501])
def test_an_erasure_needs_a_reason(sealed, compliance, reason) -> None:  # noqa: ANN001
    before = Event.objects.count()
    with pytest.raises(DomainError) as refused:
        personal_data.personal_data_erase(SUBJECT, actor=compliance, reason=reason)
    assert (refused.value.code, refused.value.field) == ("invalid_erasure_reason", "reason")
    assert Event.objects.count() == before


def test_another_propertys_subject_is_not_found(sealed, make_staff) -> None:
    from casino.services import property_register

    other = property_register(licence_number="PA-TEST-2", name="Other", system="test")
    officer = actor_of(make_staff("compliance", property=other))
    before = Event.objects.count()
    for subject in (SUBJECT, uuid.uuid4(), "not-a-uuid"):
        with pytest.raises(NotFoundError) as refused:
            personal_data.personal_data_erase(subject, actor=officer, reason="asked")
        assert refused.value.code == "personal_data_not_found"
    assert Event.objects.count() == before


def test_the_record_ending_starts_its_kinds_retention(demo_property, settings) -> None:
    settings.PERSONAL_DATA_RETENTION_DAYS = {**settings.PERSONAL_DATA_RETENTION_DAYS,
                                             "high_hand_slip": 400}
    personal_data.key_create(subject=SUBJECT, property_id=demo_property.pk,
                             kind="high_hand_slip")
    assert personal_data.retain_from([SUBJECT], NOON) == 1
    # 2026-11-26 17:00 UTC + 400 days = 2027-12-31 17:00 UTC
    assert PersonalDataKey.objects.get(subject=SUBJECT).retain_until == datetime(
        2027, 12, 31, 17, 0, tzinfo=timezone.utc)
    # set once: a second ending (a re-delivered command) leaves it as it is
    assert personal_data.retain_from([SUBJECT], NOON + timedelta(days=3)) == 0


def _keys(demo_property, *retain_until):  # noqa: ANN001, ANN202
    subjects = []
    for when in retain_until:
        s = uuid.uuid4()
        personal_data.key_create(subject=s, property_id=demo_property.pk, kind="list_entry",
                                 retain_until=when)
        subjects.append(s)
    return subjects


def test_the_sweep_erases_each_key_past_its_retention_once(demo_property) -> None:
    due, later, unknown = _keys(demo_property, NOON - timedelta(seconds=1),
                                NOON + timedelta(seconds=1), None)
    assert personal_data.erase_due(NOON) == 1
    assert personal_data.erase_due(NOON) == 0  # a second run finds nothing due
    erased = {k.subject for k in PersonalDataKey.objects.filter(key__isnull=True)}
    assert erased == {due}
    [event] = Event.objects.filter(type="PersonalDataErased")
    assert (event.stream_id, event.metadata["actor"], event.metadata["role"],
            event.data["reason"]) == (
        f"personal_data-{due}", "system:personal-data-retention", "system",
        "the list entry's retention period (30 days) passed")


def test_the_sweep_passes_over_a_key_erased_on_a_request_meanwhile(demo_property,
                                                                   compliance) -> None:
    [due] = _keys(demo_property, NOON - timedelta(days=1))
    personal_data.personal_data_erase(due, actor=compliance, reason="asked")
    assert personal_data.erase_due(NOON) == 0
    assert Event.objects.filter(type="PersonalDataErased").count() == 1


def test_the_beat_task_erases_what_is_due_hourly(demo_property, settings) -> None:
    _keys(demo_property, NOON - timedelta(hours=1), NOON - timedelta(minutes=1))
    assert personal_data_erase_due.apply(kwargs={"now": NOON.isoformat()}).get() == 2
    entry = settings.CELERY_BEAT_SCHEDULE["personal-data-erase-due"]
    assert (entry["task"], entry["schedule"]) == ("casino.personal_data_erase_due", 3600.0)


def test_a_system_erasure_needs_no_role(sealed, demo_property) -> None:
    personal_data.personal_data_erase(SUBJECT, actor=system_actor(demo_property, "test"),
                                      reason="retention")
    assert personal_data.unseal(sealed) is None


def test_the_management_command_erases_at_compliances_hand(sealed, compliance,
                                                           capsys) -> None:  # noqa: ANN001
    call_command("personal_data_erase", str(SUBJECT), "--by", "cora", "--reason",
                 "the player asked at the desk")
    assert "erased: the personal details of list entry" in capsys.readouterr().out
    assert personal_data.unseal(sealed) is None


def test_the_management_command_refuses_another_role(sealed, make_staff) -> None:
    make_staff("floorperson", username="fay")
    with pytest.raises(CommandError, match="not a compliance officer"):
        call_command("personal_data_erase", str(SUBJECT), "--by", "fay", "--reason", "x")
    assert personal_data.unseal(sealed) is not None


def test_the_admin_neither_shows_nor_edits_the_keys() -> None:
    assert PersonalDataKey not in admin.site._registry
