"""The house edge of each paytable a Rules Submission selects, shown before approval, and
the approver's acknowledgement of a negative one (issue 27, item 5; § 601a.2).

Read by the letter of § 589.6(d)(7), an ace-king is any five cards holding an ace and a
king, paired or not; our ranking reads it so (tables.domain.hands.lunar.super_hand_589).
Then the 589.12(b) Super Wager pays back more than is wagered. The line counts below are
worked by hand with binomial coefficients, never taken from the code under test.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import head, read_stream
from tables.domain.paytable_edges import (
    BONUS_PER_UNIT, HOUSE_EDGES, edge_of, negative_edges, percent, selected_paytables,
)
from tables.domain.paytable_math import EXACT_TABLES, exact_figures
from tables.domain.rules_options import example_options
from tables.models import RulesState
from tables.services import rules
from tests.tables._api import ok as _ok
from tests.console.conftest import console_client  # noqa: F401
from tests.tables._api import problem as _problem

N = comb(52, 5)  # 2,598,960
LUNAR = "lunar-poker-589"

# --- § 589.6(d), § 589.12(b) by hand ----------------------------------------------------
# With an ace and a king: all hands less those without an ace or without a king.
WITH_ACE_AND_KING = N - 2 * comb(48, 5) + comb(44, 5)  # 260,360
# ... of which a higher Super Wager line takes: four aces + a king or four kings + an
# ace (8); AAA-KK or KKK-AA (2 x 4 x 6); a flush holding both, the royal aside
# (4 x (C(11,3) - 1)); a straight A-K-Q-J-10, royals included (4^5); three of a kind with
# both: AAA-K-x or KKK-A-x (2 x 4 x 4 x 44) or three of another rank with A and K
# (11 x 4 x 4 x 4).
ACE_KING = WITH_ACE_AND_KING - 8 - 2 * 4 * 6 - 4 * (comb(11, 3) - 1) - 4 ** 5 \
    - (2 * 4 * 4 * 44 + 11 * 4 * 4 * 4)
# Five cards of one color (26 cards, two suits: no trips, full house or quads) less the
# flushes (2 x C(13,5)), the same-colored straights (10 x (2^5 - 2)) and the ace-kings
# among them (with both in the color, less their flushes 2 x C(11,3) and straights 2^5-2).
_AK_IN_COLOR = comb(26, 5) - 2 * comb(24, 5) + comb(22, 5) - 2 * comb(11, 3) - (2 ** 5 - 2)
SAME_COLORED_FIVE = 2 * (comb(26, 5) - 2 * comb(13, 5) - 10 * (2 ** 5 - 2) - _AK_IN_COLOR)
# The standard counts: quads 624; straight flushes 40 + same-colored straights
# 10 x 2 x (2^5 - 2) = 600; full houses 3,744; flushes 5,108; the other straights
# 10,200 - 600; three of a kind 54,912.
FIXED_LINES = [(624, 250), (40 + 600, 150), (3744, 100), (5108, 60), (10200 - 600, 30)]


def _589_super_edge(trips_to_1: int, ace_king_to_1: int) -> Fraction:
    """1 - Σ count × (X + 1) / C(52,5) for a 589.12(b) paytable ("X to 1")."""
    lines = FIXED_LINES + [(54912, trips_to_1), (ACE_KING, ace_king_to_1),
                           (SAME_COLORED_FIVE, 2)]
    return 1 - Fraction(sum(n * (x + 1) for n, x in lines), N)


# § 589.12(b): A 8/6, B 8/5, C 7/6 for three-of-a-kind / ace-king
SUPER = {"A": (8, 6, "-48.804 %"), "B": (8, 5, "-38.934 %"), "C": (7, 6, "-46.691 %")}


def test_hand_counts_of_the_ace_king_and_same_colored_five_lines_589_6_d_7():
    """§ 589.6(d)(7)-(8): the hand counts agree with the enumeration of every hand."""
    assert (ACE_KING, SAME_COLORED_FIVE) == (256512, 112320)
    lines = {line.hand.value: line.count for line in exact_figures("589-super-B").lines}
    assert (lines["ace_king"], lines["same_colored_five"]) == (ACE_KING, SAME_COLORED_FIVE)


@pytest.mark.parametrize("letter", ["A", "B", "C"])
def test_589_super_wager_paytables_have_a_negative_house_edge_589_12_b(letter):
    """§ 589.12(b), § 589.6(d)(7) read by the letter: the ace-king line alone returns
    more than half the wager (256,512 / 2,598,960 x 6 > 0.59 on B); every paytable
    returns more than it takes: house edges of -38.9 % (B) to -48.8 % (A)."""
    trips, ak, shown = SUPER[letter]
    edge = _589_super_edge(trips, ak)
    assert edge < 0
    assert Fraction(ACE_KING * (ak + 1), N) > Fraction(1, 2)
    figures = edge_of(f"589-super-{letter}")
    assert figures.house_edge == edge
    assert figures.negative_house_edge
    assert percent(edge) == shown == figures.as_dict()["house_edge_percent"]
    assert figures.as_dict()["house_edge"] == f"{edge.numerator}/{edge.denominator}"


def test_the_written_table_matches_the_enumeration_of_every_paytable():
    """§ 589.12(a)-(b), § 671a.12(a)-(b), § 579.12(b), (d): every exact figure the Rules
    Submission shows is the enumeration's, for each enumerable paytable."""
    assert set(HOUSE_EDGES) | set(BONUS_PER_UNIT) == set(EXACT_TABLES)
    for name in EXACT_TABLES:
        f = exact_figures(name)
        assert (f.house_edge, f.bonus_per_unit) == (HOUSE_EDGES.get(name),
                                                    BONUS_PER_UNIT.get(name)), name


def test_positive_edges_are_not_flagged_579_12_d():
    """§ 579.12(d) Paytable A: 1 - Σ count × (X + 1) / total, pairs of 7s or better being
    8 of the 13 pair ranks of 1,098,240 one-pair hands."""
    counts_odds = [(4, 250), (36, 50), (624, 25), (3744, 15), (5108, 10), (10200, 8),
                   (54912, 5), (123552, 3), (1098240 * 8 // 13, 1)]
    edge = 1 - Fraction(sum(n * (x + 1) for n, x in counts_odds), N)
    assert edge_of("579-poker-bonus-A").house_edge == edge > 0
    assert not edge_of("579-poker-bonus-A").negative_house_edge
    assert percent(edge) == "7.566 %"


def test_the_paytables_each_game_selects_589_12_671a_12_579_12():
    """§ 589.12(a)-(b), § 671a.7(c)(2) and § 671a.12(a)-(b), § 579.12(b)-(d): what the
    options of a submission select; poker selects none."""
    assert selected_paytables(LUNAR, example_options(LUNAR)) == ("589-instant-A",
                                                                 "589-super-B")
    assert selected_paytables(LUNAR, {**example_options(LUNAR), "super_paytable": None}) \
        == ("589-instant-A",)
    assert selected_paytables("lunar-poker-671a", example_options("lunar-poker-671a")) == (
        "671a-instant-A", "671a-super")
    assert selected_paytables("five-card-hi-lo", example_options("five-card-hi-lo")) == (
        "579-ante-bonus-B", "579-tie", "579-poker-bonus-A")
    assert selected_paytables("holdem", example_options("holdem")) == ()
    assert [e.paytable for e in negative_edges(LUNAR, example_options(LUNAR))] == [
        "589-super-B"]


def test_one_way_of_writing_a_percentage():
    assert [percent(Fraction(1, 3)), percent(Fraction(-1, 8)), percent(Fraction(0)),
            percent(Fraction(2731, 49980))] == ["33.333 %", "-12.500 %", "0.000 %",
                                                 "5.464 %"]


def test_extra_payouts_and_dealer_dependent_tables_show_no_house_edge_579_12_b():
    """§ 579.12(b) Paytable A ("for 1", paid on the Ante): (4 x 1000 + 44 x 100 +
    4,512 x 10) / 2,598,960 of the Ante on average; § 579.12(c) Tie: simulated only."""
    bonus = edge_of("579-ante-bonus-A").as_dict()
    assert bonus["house_edge"] is None and not bonus["negative_house_edge"]
    assert bonus["bonus_per_unit_ante_percent"] == percent(
        Fraction(4 * 1000 + 44 * 100 + 4512 * 10, N)) == "2.059 %"
    tie = edge_of("579-tie").as_dict()
    assert (tie["house_edge"], tie["bonus_per_unit_ante_percent"]) == (None, None)


# --- approval (services) ---------------------------------------------------------------

def _submitted(crew: dict[str, Any], game: str = LUNAR, **changes: Any) -> Any:
    rs = rules.rules_draft(actor=crew["compliance"], game=game,
                           options={**example_options(game), **changes})
    return rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("letter", ["A", "B", "C"])
def test_approving_a_negative_edge_needs_the_approvers_acknowledgement_601a_2(crew, letter):
    """§ 601a.2, § 589.12(b): refused without the acknowledgement (nothing appended),
    approved with it, the paytable and its edge recorded on the approval by its actor."""
    rs = _submitted(crew, super_paytable=letter)
    before = head()
    with pytest.raises(ConflictError) as err:
        rules.rules_approve(actor=crew["approver"], rules_id=rs.pk)
    assert err.value.code == "negative_house_edge_unacknowledged"
    edge = _589_super_edge(*SUPER[letter][:2])
    assert [(e["paytable"], e["house_edge"]) for e in err.value.extra["negative_house_edges"]] \
        == [(f"589-super-{letter}", f"{edge.numerator}/{edge.denominator}")]
    assert head() == before
    rs = rules.rules_approve(actor=crew["approver"], rules_id=rs.pk,
                             acknowledge_negative_house_edge=True)
    assert rs.state == RulesState.IN_EFFECT
    approved = [e for e in read_stream(rs.stream_id) if e.type == "RulesSubmissionApproved"]
    assert approved[0].metadata["actor"] == crew["approver"].username
    assert approved[0].data["negative_house_edges_acknowledged"] == [{
        "paytable": f"589-super-{letter}", "section": "589.12(b)",
        "house_edge": f"{edge.numerator}/{edge.denominator}",
        "house_edge_percent": SUPER[letter][2]}]


@pytest.mark.django_db
def test_positive_edges_approve_as_before_579_12_d(crew):
    """§ 579.12(d): Poker Bonus A (7.566 %) needs no acknowledgement; the approval
    records only its effective time."""
    rs = rules.rules_approve(actor=crew["approver"], rules_id=_submitted(
        crew, "five-card-hi-lo").pk)
    assert rs.state == RulesState.IN_EFFECT
    approved = [e for e in read_stream(rs.stream_id) if e.type == "RulesSubmissionApproved"]
    assert set(approved[0].data) == {"effective_at"}


@pytest.mark.django_db
def test_an_acknowledgement_that_is_not_a_yes_or_no_is_refused(crew):
    """§ 601a.2: the approver's acknowledgement is true or false; anything else is
    refused by its own code, nothing appended."""
    rs = _submitted(crew)
    before = head()
    with pytest.raises(DomainError) as err:
        rules.rules_approve(actor=crew["approver"], rules_id=rs.pk,
                            acknowledge_negative_house_edge="yes")
    assert (err.value.code, err.value.field) == ("invalid_acknowledgement",
                                                 "acknowledge_negative_house_edge")
    assert head() == before


# --- the API answer and the console page -----------------------------------------------

@pytest.mark.django_db
def test_the_api_shows_the_edges_and_refuses_an_unacknowledged_approval_589_12_b(api_as):
    """§ 589.12(b), § 601a.2 through the API: the submission's answer carries each
    selected paytable's edge and flag; approval is a 409 problem until acknowledged."""
    filer, approver = api_as("compliance"), api_as("compliance")
    rs = _ok(filer.post("/api/v1/rules-submissions/", {
        "game": LUNAR, "options": {**example_options(LUNAR), "super_paytable": "A"}},
        format="json"), 201)
    _ok(filer.post(f"/api/v1/rules-submissions/{rs['id']}/submit/"))
    shown = _ok(approver.get(f"/api/v1/rules-submissions/{rs['id']}/"))["paytables"]
    assert [(p["paytable"], p["house_edge_percent"], p["negative_house_edge"])
            for p in shown] == [("589-instant-A", None, False),
                                ("589-super-A", "-48.804 %", True)]
    before = head()
    body = _problem(approver.post(f"/api/v1/rules-submissions/{rs['id']}/approve/", {},
                                  format="json"), 409, "negative_house_edge_unacknowledged")
    assert [p["paytable"] for p in body["negative_house_edges"]] == ["589-super-A"]
    assert head() == before
    done = _ok(approver.post(f"/api/v1/rules-submissions/{rs['id']}/approve/",
                             {"acknowledge_negative_house_edge": True}, format="json"))
    assert done["state"] == "in_effect"


@pytest.mark.django_db
def test_the_rules_page_flags_the_negative_edge_589_12_b(
        console_client: Callable, crew) -> None:  # noqa: F811
    """§ 589.12(b): the Rules Submissions page shows each selected paytable's edge, the
    negative one flagged, before the approval."""
    _submitted(crew, super_paytable="C")
    body = console_client("compliance").get("/console/rules/").content.decode()
    assert "Super Wager Paytable C (589.12(b)): house edge -46.691 %" in body
    assert "Negative house edge" in body


@pytest.mark.django_db
def test_the_console_approval_form_asks_for_the_acknowledgement_589_12_b(
        console_client: Callable, crew) -> None:  # noqa: F811
    """§ 601a.2, § 589.12(b) from the console: the approval form has the box; unticked,
    the refusal in words and nothing recorded; ticked, approved with the acknowledgement
    on the event of the officer who ticked it."""
    import re

    rs = _submitted(crew, super_paytable="B")
    c = console_client("compliance")
    url = f"/console/do/rules_approve/{rs.pk}/"
    page = c.get(url).content.decode()
    assert 'name="acknowledge_negative_house_edge"' in page
    hidden = dict(re.findall(r'<input type="hidden" name="(_\w+)" value="([^"]*)"', page))
    before = head()
    refused = c.post(url, hidden)
    assert refused.status_code == 409
    assert 'data-code="negative_house_edge_unacknowledged"' in refused.content.decode()
    assert head() == before
    assert c.post(url, {**hidden, "acknowledge_negative_house_edge": "on"}).status_code == 303
    approved = [e for e in read_stream(rs.stream_id) if e.type == "RulesSubmissionApproved"]
    assert approved[0].metadata["actor"] == c.user.username
    assert [e["house_edge_percent"] for e in
            approved[0].data["negative_house_edges_acknowledged"]] == ["-38.934 %"]


def test_the_history_names_the_acknowledged_negative_edge_601a_2():
    """§ 601a.2: the event log's sentence of an approval says which negative house edge
    its approver acknowledged; an approval without one reads as before."""
    from django.utils import timezone

    from console.history import sentence

    data = {"effective_at": "2026-11-26T12:09:00+00:00"}
    meta = {"actor": "cora", "role": "compliance"}
    acknowledged = {**data, "negative_house_edges_acknowledged": [
        {"paytable": "589-super-B", "section": "589.12(b)", "house_edge": "-84323/216580",
         "house_edge_percent": "-38.934 %"}]}
    with timezone.override("America/New_York"):
        plain = sentence({"type": "RulesSubmissionApproved", "data": data, "metadata": meta})
        flagged = sentence({"type": "RulesSubmissionApproved", "data": acknowledged,
                            "metadata": meta})
    assert plain == ("cora (compliance) approved the Rules Submission, in effect from "
                     "Nov 26, 2026, 7:09 AM EST")
    assert flagged == plain + ", acknowledging the negative house edge of 589-super-B " \
                              "(-38.934 %)"
