"""A declared command's input serializer as console fields (console.forms): what a person
types becomes the body the API would have received, which the API's own serializer then
validates. No database: serializers and query dicts only."""

from __future__ import annotations

from django.http import QueryDict

from console.forms import FormFields, fixed_by_task

ZONE = "America/New_York"


def fields(serializer: type, **sent: str) -> FormFields:
    q = QueryDict(mutable=True)
    for k, v in sent.items():
        q[k.replace("__", "-")] = v
    return FormFields(serializer, zone=ZONE, source=q)


def test_a_seat_with_a_cash_buy_in_in_dollars_and_the_players_name() -> None:
    """$100.50 typed → 10050 cents; the player's fieldset gives the nested object the High
    Hand Tracking Slip records (§ 637a.16(f)(1))."""
    from poker_room.api.serializers import SeatIn

    f = fields(SeatIn, seat="3", buy_in_cents="100.50", paid_with="cash",
               player__name="Ana", player__phone="")
    body, ok = f.body()
    assert ok
    assert body == {"seat": 3, "buy_in_cents": 10050, "paid_with": "cash",
                    "player": {"name": "Ana"}}
    assert SeatIn(data=body).is_valid()
    widgets = {x.name: x.widget for x in f.fields}
    assert widgets == {"seat": "number", "buy_in_cents": "dollars", "paid_with": "select",
                       "player": "group"}


def test_an_anonymous_seat_leaves_the_player_out() -> None:
    from poker_room.api.serializers import SeatIn

    body, ok = fields(SeatIn, seat="1", buy_in_cents="40", paid_with="chips").body()
    assert ok and body == {"seat": 1, "buy_in_cents": 4000, "paid_with": "chips",
                           "player": None}


def test_a_fraction_of_a_cent_is_refused_not_rounded() -> None:
    from poker_room.api.serializers import SeatIn

    f = fields(SeatIn, seat="1", buy_in_cents="12.505", paid_with="cash")
    body, ok = f.body()
    assert not ok and "buy_in_cents" not in body
    money = f.field_named("buy_in_cents")
    assert money is not None and money.errors and money.invalid


def test_bad_beat_payees_are_rows_and_blank_rows_are_no_rows() -> None:
    """The Bad Beat payout (§ 637a.15(f)): each payee a row of seat, name and
    identification; "Add a row" makes the form one row longer without sending it."""
    from jackpots.api.serializers import PayIn

    f = fields(PayIn, hand_id="h-1", **{"_rows-payees": "2"},
               payees__0__seat="2", payees__0__name="Bo", payees__0__identification="PA-1")
    body, ok = f.body()
    assert ok
    assert body["payees"] == [{"seat": 2, "name": "Bo", "identification": "PA-1"}]
    payees = f.field_named("payees")
    assert payees is not None and len(payees.rows) == 2
    longer = FormFields(PayIn, zone=ZONE, source=QueryDict("_rows-payees=2"), add_row="payees")
    assert len(longer.field_named("payees").rows) == 3


def test_the_serializers_errors_land_on_the_rows_fields() -> None:
    from jackpots.api.serializers import PayIn

    f = fields(PayIn, hand_id="h-1", payees__0__seat="x2", payees__0__name="Bo")
    body, ok = f.body()
    assert not ok  # "x2" is no whole number
    f = fields(PayIn, hand_id="h-1", payees__0__seat="2", payees__0__name="Bo")
    body, ok = f.body()
    s = PayIn(data=body)
    assert not s.is_valid()
    assert f.attach(s.errors) == []
    ident = [c for c in f.field_named("payees").rows[0] if c.key == "identification"][0]
    assert ident.errors


def test_cards_are_one_box_separated_by_spaces() -> None:
    """A banked round's hands (CardsField): one box, the cards as typed, in order."""
    from tables.api.banked_serializers import SetHandsInput

    f = fields(SetHandsInput, position="2", high="As Ks, Qs", low="10d 9c")
    assert f.field_named("high").widget == f.field_named("low").widget == "cards"
    body, ok = f.body()
    assert ok
    assert body == {"position": 2, "high": ["As", "Ks", "Qs"], "low": ["10d", "9c"]}
    assert SetHandsInput(data=body).is_valid()


def test_a_plain_list_of_cards_is_one_card_a_row() -> None:
    """A High Hand's record (RecordIn, § 637a.16(f)(3)): its cards are a plain list of
    text, so one card a row, in the rows' order."""
    from jackpots.api.serializers import RecordIn

    f = fields(RecordIn, table_id="t", seat="4", player__name="Cy", dealer="dee",
               **{"_rows-cards": "3"}, cards__0="As", cards__1="Ks", cards__2="Qs")
    assert f.field_named("cards").widget == "rows"
    body, ok = f.body()
    assert ok
    assert body["cards"] == ["As", "Ks", "Qs"]
    assert body["player"] == {"name": "Cy"} and body["seat"] == 4


#: the approval's box for a negative house edge, left unticked, is sent as false
UNTICKED = {"acknowledge_negative_house_edge": False}


def test_a_time_is_read_on_the_propertys_clock() -> None:
    from tables.api.serializers import ApproveInput

    body, ok = fields(ApproveInput, effective_at="2026-12-01T06:00").body()
    assert ok and body == {"effective_at": "2026-12-01T06:00:00-05:00", **UNTICKED}


def test_a_required_yes_or_no_is_not_a_checkbox() -> None:
    from tables.api.serializers import VerifyInput

    f = fields(VerifyInput)
    assert f.field_named("accepted").widget == "yesno"
    assert f.body() == ({}, True)  # nothing chosen: the serializer says it is required
    assert fields(VerifyInput, accepted="no").body() == ({"accepted": False}, True)


def test_a_tasks_link_fixes_its_identifiers() -> None:
    assert fixed_by_task({"slip_id": "1", "gaming_day": "2026-11-25", "reason": "x"}) == {
        "slip_id", "gaming_day"}
    assert fixed_by_task({"slip_id": "1", "fixed": "reason"}) == {"reason"}


def test_every_input_serializer_makes_fields() -> None:
    """Each declared command's input gives fields without failing, and names those shown
    as JSON (no usable form yet: a Rules Submission's options, a poker hand's command, the
    settlement script)."""
    import casino.urls  # noqa: F401
    from casino.declared import all_declared
    from console import forms

    for decl in all_declared():
        FormFields(decl.input, zone=ZONE, source=QueryDict())
    # rules_draft/rules_revise options; hand_command(s) and hand_settle_script (the poker
    # terminal's and the dispute calculator's); round_settle_script (the banked one's)
    assert forms.RAW_JSON == {"options", "command", "commands", "stacks", "deck",
                              "positions", "dealer", "irregularities", "expected", "cite"}


# --- the clocks changing (America/New_York: forward on Mar 8, 2026 at 2 AM, back on
# Nov 1, 2026 at 2 AM) -------------------------------------------------------------------

def test_a_time_the_clock_skips_is_refused_not_moved() -> None:
    """2:30 AM on Mar 8, 2026 never happened in New York (2 AM became 3 AM): refused in a
    sentence, not moved to 3:30 AM or given an offset of either side."""
    from tables.api.serializers import ApproveInput

    f = fields(ApproveInput, effective_at="2026-03-08T02:30")
    body, ok = f.body()
    assert not ok and "effective_at" not in body
    (said,) = f.field_named("effective_at").errors
    assert said.startswith("2:30 AM on ")
    assert "does not exist on the property's clock" in said and "went forward" in said
    # either side of the gap is read as the clock shows it
    assert fields(ApproveInput, effective_at="2026-03-08T01:30").body() == (
        {"effective_at": "2026-03-08T01:30:00-05:00", **UNTICKED}, True)
    assert fields(ApproveInput, effective_at="2026-03-08T03:30").body() == (
        {"effective_at": "2026-03-08T03:30:00-04:00", **UNTICKED}, True)


def test_a_time_the_clock_shows_twice_is_refused_as_ambiguous() -> None:
    """1:30 AM on Nov 1, 2026 happened twice in New York: 05:30 UTC (EDT) and 06:30 UTC
    (EST). The form does not pick one."""
    from tables.api.serializers import ApproveInput

    f = fields(ApproveInput, effective_at="2026-11-01T01:30")
    body, ok = f.body()
    assert not ok
    (said,) = f.field_named("effective_at").errors
    assert "1:30 AM on " in said and "is ambiguous" in said and "went back" in said
    assert "05:30 and at 06:30 UTC" in said
    assert fields(ApproveInput, effective_at="2026-11-01T02:30").body() == (
        {"effective_at": "2026-11-01T02:30:00-05:00", **UNTICKED}, True)


def test_a_password_is_a_password_box_never_echoed() -> None:
    """staff_enrol and password_change: the box is type="password" and a refused
    form never writes what was typed back into the page."""
    from django.template.loader import render_to_string

    from casino.api.staff_serializers import EnrolInput, PasswordChangeInput

    for serializer, name in ((EnrolInput, "password"), (PasswordChangeInput, "new_password")):
        f = fields(serializer, **{name: "hunter2-secret"}, reason="forgot it")
        box = f.field_named(name)
        assert box.widget == "password"
        assert f.body()[0][name] == "hunter2-secret"  # still sent to the service
        box.errors.append("Too short.")  # as a refusal would mark it
        html = render_to_string("console/_field.html", {"f": box})
        assert 'type="password"' in html
        assert "hunter2-secret" not in html
    fixed = FormFields(EnrolInput, zone=ZONE, fixed={"password"},
                       source=QueryDict("password=hunter2-secret"))
    assert not fixed.field_named("password").readonly  # never shown, not even read-only
