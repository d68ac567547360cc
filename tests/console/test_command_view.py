"""The one command view (issue 23 item 3 and "Bad input"; console.command_view): every
declared command as a form that calls the service the API calls, refuses what the API
refuses and appends nothing when it refuses. Real services, the real event store, the
Django test client signed in as staff (tests/console/conftest.py)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from casino.actors import Actor, actor_of
import casino.urls  # noqa: F401  (every app's commands are declared by its API's routes)
from casino.declared import all_declared
from casino.eventstore.models import Event
from casino.roles import Role

pytestmark = pytest.mark.postgres

GAME = "five-card-hi-lo"


# --- the day's people and things, through the real services -------------------------------

@pytest.fixture
def actor(make_staff: Callable) -> Callable[..., Actor]:
    return lambda *roles, **kw: actor_of(make_staff(*roles, **kw))


@pytest.fixture
def crew(actor: Callable[..., Actor]) -> dict[str, Actor]:
    return {"admin": actor("admin"), "compliance": actor("compliance"),
            "approver": actor("compliance"), "floor": actor("floorperson"),
            "dealer": actor("dealer")}


@pytest.fixture
def table(crew: dict[str, Actor]) -> Any:
    from tables.domain.rules_options import example_options
    from tables.services import rules, tables

    rs = rules.rules_draft(actor=crew["compliance"], game=GAME, options=example_options(GAME))
    rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)
    rules.rules_approve(actor=crew["approver"], rules_id=rs.pk)
    t = tables.table_configure(actor=crew["admin"], name="Hi-Lo 1", game=GAME, positions=6,
                               dealing_method="automated-shoe", shuffler="automated")
    tables.table_assign_dealer(actor=crew["floor"], table_id=t.pk,
                               dealer=crew["dealer"].username)
    return tables.table_open(actor=crew["floor"], table_id=t.pk)


@pytest.fixture
def inspected_deck(crew: dict[str, Actor], table: Any) -> Callable[[], Any]:
    """A deck received and inspected by the table's dealer: its inspection waits for a
    floorperson's verification (§ 589.4(a))."""
    from tables.services import decks

    def make() -> Any:
        d = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                               batch="B-1")
        decks.deck_inspect(actor=crew["dealer"], deck_id=d.pk, defects=[])
        return d
    return make


@pytest.fixture
def submitted_rules(crew: dict[str, Actor]) -> Callable[[], Any]:
    """A Rules Submission version filed and submitted by one compliance officer, waiting
    for a second one's approval."""
    from tables.domain.rules_options import example_options
    from tables.services import rules

    def make(game: str = "five-card-hi-lo") -> Any:
        rs = rules.rules_draft(actor=crew["compliance"], game=game,
                               options=example_options(game))
        return rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)
    return make


def events_count() -> int:
    return Event.objects.count()


def new_events(before: int) -> list[Event]:
    return list(Event.objects.order_by("position")[before:])


def shape(events: list[Event]) -> list[tuple[str, list[str]]]:
    """What a command recorded, aggregate ids aside: each event's type and data keys."""
    return [(e.type, sorted(e.data)) for e in events]


def form_of(response: Any) -> dict[str, str]:
    """The hidden fields of a rendered command form (key, version, next)."""
    html = response.content.decode()
    return dict(re.findall(r'<input type="hidden" name="(_\w+)" value="([^"]*)"', html))


def labels_cover_inputs(html: str) -> None:
    """Every visible input, select and text area has a <label for> naming it."""
    ids = re.findall(r'<(?:input|select|textarea)(?![^>]*type="hidden")[^>]*\bid="([^"]+)"',
                     html)
    labelled = set(re.findall(r'<label for="([^"]+)"', html))
    assert ids, "the form has no field"
    missing = [i for i in ids if i not in labelled]
    assert not missing, f"fields without a label: {missing}"


# --- GET ------------------------------------------------------------------------------------

def test_deck_verify_form_shows_every_field_labelled_with_its_version(
        console_client: Callable, inspected_deck: Callable) -> None:
    deck = inspected_deck()
    c = console_client("floorperson")
    before = events_count()
    r = c.get(f"/console/do/deck_inspection_verify/{deck.pk}/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "<h1>" in html and html.count("<h1") == 1
    labels_cover_inputs(html)
    # a required yes/no is two radios under a legend (nothing chosen: an unticked box
    # must not mean "rejected"); the note is an optional text area
    assert 'name="accepted" value="yes"' in html and 'name="accepted" value="no"' in html
    assert "checked" not in html.split('name="accepted"')[1][:40]
    assert '<textarea id="f-note" name="note"' in html
    hidden = form_of(r)
    uuid.UUID(hidden["_key"])
    # received (v1) and inspected (v2): the stream's newest version
    assert hidden["_version"] == "2"
    assert events_count() == before  # a GET appends nothing


def test_query_string_prefills_and_a_task_fixed_identifier_is_read_only(
        console_client: Callable, table: Any) -> None:
    c = console_client("cashier")
    r = c.get(f"/console/do/slip_prepare/{table.pk}/?slip_id=abc&gaming_day=2026-11-25")
    html = r.content.decode()
    assert r.status_code == 200
    assert re.search(r'id="f-slip_id" name="slip_id" value="abc" readonly', html)
    assert re.search(r'id="f-gaming_day" name="gaming_day" value="2026-11-25" readonly', html)


def test_money_in_the_query_string_is_shown_in_dollars(console_client: Callable,
                                                       table: Any) -> None:
    r = console_client("dealer").get(f"/console/do/chips_sell/{table.pk}/?amount_cents=1250")
    assert re.search(r'name="amount_cents"[^>]*value="12.50"', r.content.decode())


# --- POST: the same events as the API -------------------------------------------------------

def test_deck_verify_records_what_the_api_records(console_client: Callable, api_as: Callable,
                                                  inspected_deck: Callable) -> None:
    """§ 589.4(a): the floorperson verifies the dealer's inspection; the console's form and
    the API record the same events."""
    by_form, by_api = inspected_deck(), inspected_deck()
    c, api = console_client("floorperson"), api_as("floorperson")
    hidden = form_of(c.get(f"/console/do/deck_inspection_verify/{by_form.pk}/"))
    before = events_count()
    r = c.post(f"/console/do/deck_inspection_verify/{by_form.pk}/",
               {**hidden, "accepted": "yes", "note": "all 52 there", "_next": "/console/"})
    assert r.status_code == 303 and r["Location"] == "/console/"
    form_events = new_events(before)
    before = events_count()
    assert api.post(f"/api/v1/decks/{by_api.pk}/verify-inspection/",
                    {"accepted": True, "note": "all 52 there"}, format="json").status_code == 200
    api_events = new_events(before)
    assert shape(form_events) == shape(api_events) == [
        ("DeckInspectionVerified", ["accepted", "note"])]
    assert form_events[0].data == api_events[0].data == {"accepted": True,
                                                         "note": "all 52 there"}
    assert form_events[0].stream_id == f"deck-{by_form.pk}" or str(by_form.pk) in \
        form_events[0].stream_id
    assert form_events[0].metadata["actor"] == c.user.username
    page = c.get("/console/")
    assert "Recorded: " in page.content.decode()


def test_fill_request_by_denomination_records_what_the_api_records(
        console_client: Callable, api_as: Callable, table: Any) -> None:
    """A fill is requested chips by denomination: one count box per denomination ($25.00
    pieces: 4 and $5.00 pieces: 10 → {"2500": 4, "500": 10}, $150.00)."""
    c, api = console_client("floorperson"), api_as("floorperson")
    r = c.get(f"/console/do/slip_request/{table.pk}/")
    html = r.content.decode()
    labels_cover_inputs(html)
    assert '<label for="f-pieces-2500">$25.00 pieces</label>' in html
    assert '<label for="f-pieces-500000">$5,000.00 pieces</label>' in html
    before = events_count()
    r = c.post(f"/console/do/slip_request/{table.pk}/",
               {**form_of(r), "kind": "fill", "pieces-2500": "4", "pieces-500": "10",
                "pieces-100": ""})
    assert r.status_code == 303, r.content.decode()[-2000:]
    form_events = new_events(before)
    before = events_count()
    assert api.post(f"/api/v1/finance/tables/{table.pk}/slips/",
                                      {"kind": "fill", "pieces": {"2500": 4, "500": 10}},
                                      format="json").status_code == 201
    api_events = new_events(before)
    assert shape(form_events) == shape(api_events)
    requested = [e for e in form_events if e.type == "SlipRequested"][0].data
    api_requested = [e for e in api_events if e.type == "SlipRequested"][0].data
    assert requested["pieces"] == api_requested["pieces"]
    assert {k: v for k, v in requested["pieces"].items() if v} == {"2500": 4, "500": 10}


def test_rules_approval_by_a_second_officer_records_what_the_api_records(
        console_client: Callable, api_as: Callable, submitted_rules: Callable) -> None:
    by_form, by_api = submitted_rules("five-card-hi-lo"), submitted_rules("lunar-poker-671a")
    c, api = console_client("compliance"), api_as("compliance")
    hidden = form_of(c.get(f"/console/do/rules_approve/{by_form.pk}/"))
    before = events_count()
    assert c.post(f"/console/do/rules_approve/{by_form.pk}/", hidden).status_code == 303
    form_events = new_events(before)
    before = events_count()
    assert api.post(f"/api/v1/rules-submissions/{by_api.pk}/approve/", {},
                                     format="json").status_code == 200
    api_events = new_events(before)
    assert shape(form_events) == shape(api_events)
    assert "RulesSubmissionApproved" in [e.type for e in form_events]
    # the data itself: each approval takes effect now (no effective time given), the
    # taking effect recorded at that same moment, by the form as by the API
    from datetime import datetime, timedelta

    from django.utils import timezone

    for events in (form_events, api_events):
        assert [e.type for e in events] == ["RulesSubmissionApproved",
                                            "RulesSubmissionTookEffect"]
        approved, took_effect = (e.data for e in events)
        assert set(approved) == {"effective_at"} and set(took_effect) == {"at"}
        assert approved["effective_at"] == took_effect["at"]
        when = datetime.fromisoformat(approved["effective_at"])
        assert abs(timezone.now() - when) < timedelta(minutes=1)


# --- refusals --------------------------------------------------------------------------------

def test_the_submitter_approving_is_refused_in_words_and_appends_nothing(
        console_client: Callable) -> None:
    """The two-person rule of a Rules Submission: the officer who submitted a version does
    not approve it (the API's 409): the sentence, "Nothing was recorded.", no event."""
    from tables.domain.rules_options import example_options
    from tables.services import rules

    c = console_client("compliance")
    me = actor_of(c.user)
    rs = rules.rules_draft(actor=me, game=GAME, options=example_options(GAME))
    rules.rules_submit(actor=me, rules_id=rs.pk)
    hidden = form_of(c.get(f"/console/do/rules_approve/{rs.pk}/"))
    before = events_count()
    r = c.post(f"/console/do/rules_approve/{rs.pk}/", hidden)
    assert r.status_code == 409
    html = r.content.decode()
    assert "Nothing was recorded." in html
    code = re.search(r'class="message message-error" data-code="(\w+)"', html).group(1)
    from django.utils.html import escape

    from casino.refusals import GENERAL, refusal_sentence

    assert refusal_sentence(code) != GENERAL  # the code's own sentence, in plain words
    assert escape(refusal_sentence(code)) in html
    assert events_count() == before


def test_a_refusal_naming_a_field_marks_that_field(console_client: Callable,
                                                  submitted_rules: Callable) -> None:
    """An effective time in the past is refused on the field (``effective_time_in_past``,
    field ``effective_at``): the box is marked invalid, described by the sentence."""
    rs = submitted_rules()
    c = console_client("compliance")
    hidden = form_of(c.get(f"/console/do/rules_approve/{rs.pk}/"))
    before = events_count()
    r = c.post(f"/console/do/rules_approve/{rs.pk}/",
               {**hidden, "effective_at": "2020-01-01T06:00"})
    assert r.status_code == 400
    html = r.content.decode()
    assert re.search(r'id="f-effective_at" name="effective_at" aria-describedby="'
                     r'f-effective_at-help f-effective_at-error" aria-invalid="true"', html)
    assert 'id="f-effective_at-error" class="field-error" data-code="effective_time_in_past"' \
        in html
    assert "Nothing was recorded. See the marked field." in html
    assert events_count() == before
    # the refusal rolled the idempotency key back with it: the corrected form goes through
    r = c.post(f"/console/do/rules_approve/{rs.pk}/", {**hidden, "effective_at": ""})
    assert r.status_code == 303


def test_the_serializers_refusal_marks_the_field(console_client: Callable,
                                                 inspected_deck: Callable) -> None:
    deck = inspected_deck()
    c = console_client("floorperson")
    hidden = form_of(c.get(f"/console/do/deck_inspection_verify/{deck.pk}/"))
    before = events_count()
    r = c.post(f"/console/do/deck_inspection_verify/{deck.pk}/", hidden)  # no yes or no
    assert r.status_code == 400
    assert 'id="f-accepted-error" class="field-error"' in r.content.decode()
    assert events_count() == before


def test_an_amount_with_a_fraction_of_a_cent_is_refused(console_client: Callable,
                                                        table: Any) -> None:
    c = console_client("dealer")
    hidden = form_of(c.get(f"/console/do/chips_sell/{table.pk}/"))
    before = events_count()
    r = c.post(f"/console/do/chips_sell/{table.pk}/", {**hidden, "amount_cents": "12.505"})
    assert r.status_code == 400
    assert 'id="f-amount_cents-error"' in r.content.decode()
    assert events_count() == before


def test_a_role_without_the_right_is_refused_with_403(console_client: Callable,
                                                      inspected_deck: Callable) -> None:
    deck = inspected_deck()
    c = console_client("cashier")
    assert c.get(f"/console/do/deck_inspection_verify/{deck.pk}/").status_code == 403
    before = events_count()
    r = c.post(f"/console/do/deck_inspection_verify/{deck.pk}/",
               {"_key": str(uuid.uuid4()), "_version": "2", "accepted": "yes"})
    assert r.status_code == 403
    assert "Your roles do not include floorperson" in r.content.decode()
    assert events_count() == before


def test_another_propertys_deck_is_404_and_appends_nothing(
        console_client: Callable, inspected_deck: Callable) -> None:
    from casino.services import property_register

    deck = inspected_deck()
    other = property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")
    c = console_client("floorperson", property=other)
    assert c.get(f"/console/do/deck_inspection_verify/{deck.pk}/").status_code == 404
    before = events_count()
    r = c.post(f"/console/do/deck_inspection_verify/{deck.pk}/",
               {"_key": str(uuid.uuid4()), "_version": "2", "accepted": "yes"})
    assert r.status_code == 404
    assert events_count() == before
    # a row that does not exist at all: the same answer
    r = c.post(f"/console/do/table_open/{uuid.uuid4()}/", {"_key": str(uuid.uuid4())})
    assert r.status_code == 404


def test_a_missing_csrf_token_is_403(make_staff: Callable, inspected_deck: Callable) -> None:
    deck = inspected_deck()
    c = Client(enforce_csrf_checks=True)
    c.force_login(make_staff("floorperson"))
    url = f"/console/do/deck_inspection_verify/{deck.pk}/"
    page = c.get(url)
    assert page.status_code == 200
    hidden = form_of(page)
    token = hidden.pop("_csrf", None) or re.search(
        r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    before = events_count()
    r = c.post(url, {**hidden, "accepted": "yes"})
    assert r.status_code == 403
    assert events_count() == before
    # the control: the same form with the page's token is recorded
    r = c.post(url, {**hidden, "accepted": "yes", "csrfmiddlewaretoken": token})
    assert r.status_code == 303
    assert [e.type for e in new_events(before)] == ["DeckInspectionVerified"]


def test_a_form_opened_before_the_deck_moved_on_says_what_changed(
        console_client: Callable, crew: dict[str, Actor], inspected_deck: Callable) -> None:
    """The form carries the deck stream's version; another floorperson verified the
    inspection meanwhile: nothing is called, the form shows what changed and the new
    version, so the person decides again."""
    from tables.services import decks

    deck = inspected_deck()
    c = console_client("floorperson")
    hidden = form_of(c.get(f"/console/do/deck_inspection_verify/{deck.pk}/"))
    decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    before = events_count()
    r = c.post(f"/console/do/deck_inspection_verify/{deck.pk}/",
               {**hidden, "accepted": "yes"})
    assert r.status_code == 409
    html = r.content.decode()
    assert "This changed since you opened it." in html
    assert crew["floor"].username in html.split('class="command-changes"')[1]
    assert form_of(r)["_version"] == "3"
    assert events_count() == before


def test_the_same_form_sent_twice_records_once(console_client: Callable,
                                               inspected_deck: Callable) -> None:
    deck = inspected_deck()
    c = console_client("floorperson")
    hidden = form_of(c.get(f"/console/do/deck_inspection_verify/{deck.pk}/"))
    sent = {**hidden, "accepted": "yes", "_next": "/console/decks/"}
    before = events_count()
    first = c.post(f"/console/do/deck_inspection_verify/{deck.pk}/", sent)
    second = c.post(f"/console/do/deck_inspection_verify/{deck.pk}/", sent)
    assert first.status_code == second.status_code == 303
    assert first["Location"] == second["Location"] == "/console/decks/"
    assert [e.type for e in new_events(before)] == ["DeckInspectionVerified"]
    from django.contrib.messages import get_messages

    assert "This was already recorded." in [str(m) for m in get_messages(second.wsgi_request)]


def test_next_must_be_local(console_client: Callable, inspected_deck: Callable) -> None:
    deck = inspected_deck()
    c = console_client("floorperson")
    hidden = form_of(c.get(f"/console/do/deck_inspection_verify/{deck.pk}/"))
    r = c.post(f"/console/do/deck_inspection_verify/{deck.pk}/",
               {**hidden, "accepted": "yes", "_next": "https://evil.example/"})
    assert r["Location"] == "/console/"


# --- every declared command's form renders ------------------------------------------------

CONSOLE_COMMANDS = [d for d in all_declared() if d.console]


@pytest.mark.parametrize("decl", CONSOLE_COMMANDS, ids=[d.name for d in CONSOLE_COMMANDS])
def test_every_console_command_renders_its_form(decl: Any, console_client: Callable) -> None:
    """GET the form of each console command (a row id of the right shape where it acts on
    one): 200, one heading, every field labelled."""
    assert CONSOLE_COMMANDS, "no command is declared"
    # one role of the declaration's suffices (two may not be held together: an
    # administrator is never a compliance officer)
    c = console_client(str(decl.roles[0]))
    pk = ""
    if decl.id_arg:  # a row id of the shape the API's route takes: its own login for <int:pk>
        pk = f"{c.user.pk}/" if "<int:" in (decl.path or "") else f"{uuid.uuid4()}/"
    r = c.get(f"/console/do/{decl.name}/{pk}")
    if decl.signs is not None:
        # a form that shows what it signs needs its row: none there, a 404 page (the
        # rows' own forms: tests/console/test_credential_reset_pages.py)
        assert r.status_code == 404, r.content.decode()[:500]
        return
    assert r.status_code == 200, r.content.decode()[:500]
    html = r.content.decode()
    assert html.count("<h1") == 1
    if re.search(r"<(?:input|select|textarea)(?![^>]*type=\"hidden\")", html.split(
            'class="command-form"')[1]):
        labels_cover_inputs(html.split('class="command-form"')[1])


def test_a_command_needing_a_row_without_one_is_404(console_client: Callable) -> None:
    assert console_client("floorperson").get("/console/do/table_open/").status_code == 404
    assert console_client("floorperson").get("/console/do/no_such_command/").status_code == 404


def test_roles_are_the_declarations(console_client: Callable) -> None:
    assert Role.FLOORPERSON in [d for d in CONSOLE_COMMANDS
                                if d.name == "deck_inspection_verify"][0].roles


# --- the idempotency key belongs to one form; rows typed in; the store's own conflict ------

def test_a_key_sent_with_another_row_or_command_is_refused_not_taken_as_recorded(
        console_client: Callable, inspected_deck: Callable, table: Any) -> None:
    """A form's key is "already recorded" only for the same command, row and login: the
    key of deck A's recorded verification sent for deck B (or for another command) is
    refused with a fresh form and appends nothing — never "This was already recorded.",
    which would leave deck B unverified while the person thinks it done."""
    from console.command_view import REUSED

    deck_a, deck_b = inspected_deck(), inspected_deck()
    c = console_client("floorperson")
    hidden = form_of(c.get(f"/console/do/deck_inspection_verify/{deck_a.pk}/"))
    assert c.post(f"/console/do/deck_inspection_verify/{deck_a.pk}/",
                  {**hidden, "accepted": "yes"}).status_code == 303
    before = events_count()
    r = c.post(f"/console/do/deck_inspection_verify/{deck_b.pk}/",
               {**hidden, "accepted": "yes"})
    assert r.status_code == 409
    assert REUSED in r.content.decode()
    assert form_of(r)["_key"] not in ("", hidden["_key"])  # a fresh form
    assert events_count() == before
    r = c.post(f"/console/do/deck_remove/{deck_b.pk}/", {**hidden, "reason": "worn"})
    assert r.status_code == 409 and REUSED in r.content.decode()
    # another login with the same key and row: refused too
    other = console_client("floorperson")
    before = events_count()  # after the other login's enrolment
    r = other.post(f"/console/do/deck_inspection_verify/{deck_a.pk}/",
                   {**hidden, "accepted": "yes"})
    assert r.status_code == 409 and REUSED in r.content.decode()
    assert events_count() == before
    # the same form again: already recorded, as before
    r = c.post(f"/console/do/deck_inspection_verify/{deck_a.pk}/",
               {**hidden, "accepted": "yes"})
    assert r.status_code == 303


def test_a_row_typed_into_the_form_that_is_not_found_is_a_refusal_on_its_field(
        console_client: Callable, table: Any) -> None:
    """A chip sale naming a round that is not this table's (``round_not_found``, field
    ``round_id``): the form comes back with the field marked, not a 404 page; the URL's
    own row not found stays a 404."""
    c = console_client("dealer")
    url = f"/console/do/chips_sell/{table.pk}/"
    hidden = form_of(c.get(url))
    before = events_count()
    r = c.post(url, {**hidden, "amount_cents": "20.00", "round_id": str(uuid.uuid4())})
    assert r.status_code == 400
    html = r.content.decode()
    assert 'id="f-round_id-error" class="field-error" data-code="round_not_found"' in html
    assert "Nothing was recorded. See the marked field." in html
    assert events_count() == before
    r = c.post(f"/console/do/chips_sell/{uuid.uuid4()}/",
               {**hidden, "amount_cents": "20.00"})
    assert r.status_code == 404
    assert events_count() == before


@pytest.fixture
def stale_append() -> Any:
    """A command declared for this test only, whose service appends to the deck's stream
    at a version it read before: the store's own optimistic-concurrency check refuses it
    (``ConcurrencyError``, DESIGN §3) after the form's check passed — what a second
    person's step landing between the two does."""
    from casino.declared import _DECLARED, declare
    from casino.eventstore.records import NewEvent
    from casino.eventstore.store import append
    from tables.api.serializers import EmptyInput, DeckSerializer

    def stale_deck_append(*, actor: Actor, deck_id: Any) -> Any:
        append(("deck", f"deck-{deck_id}"), 1, [NewEvent("DeckNoteProbe", {})],
               actor.metadata(role="floorperson"))

    decl = declare("stale_deck_append", service=stale_deck_append, input=EmptyInput,
                   output=DeckSerializer, roles=(Role.FLOORPERSON,), id_arg="deck_id",
                   stream=lambda pk: f"deck-{pk}", summary="Test only.")
    yield decl
    _DECLARED.pop("stale_deck_append", None)


def test_the_stores_concurrency_refusal_is_shown_as_a_stale_form(
        console_client: Callable, inspected_deck: Callable, stale_append: Any) -> None:
    deck = inspected_deck()
    c = console_client("floorperson")
    url = f"/console/do/stale_deck_append/{deck.pk}/"
    hidden = form_of(c.get(url))
    assert hidden["_version"] == "2"
    before = events_count()
    r = c.post(url, hidden)
    assert r.status_code == 409
    html = r.content.decode()
    assert "This changed since you opened it." in html
    assert form_of(r)["_version"] == "2"
    assert events_count() == before
