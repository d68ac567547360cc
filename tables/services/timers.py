"""What the deck-change and Rules Submission timers do when they fire (589.3(c),
671a.3(c), 579.3(c), 637a.3(c)). Each is idempotent: firing twice, or after the deck left
play or its deadline moved, changes nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.actors import system_actor
from casino.eventstore.store import NewEvent
from casino.models import Property
from tables.models import Deck, DeckState, RulesState, RulesSubmission
from tables.services.common import record
from tables.services.rules import rules_activate_due

KINDS = ("warning", "due")


def fire_time(kind: str, deadline: datetime) -> datetime:
    if kind not in KINDS:
        raise ValueError(f"timer kind must be one of {KINDS}, not {kind!r}")
    if kind == "warning":
        return deadline - timedelta(seconds=settings.DECK_CHANGE_WARNING_SECONDS)
    return deadline


def deck_timer_fire(*, deck_id: str, kind: str, deadline: str) -> str:
    """Mark the deck (warning or change-due) for this deadline; say what happened."""
    when = datetime.fromisoformat(deadline)
    fire_time(kind, when)
    with transaction.atomic():
        deck = Deck.objects.select_for_update().select_related("property").filter(
            pk=deck_id).first()
        if deck is None or deck.state != DeckState.IN_PLAY:
            return "not-in-play"
        if deck.deadline_at != when:
            return "stale-deadline"
        if deck.change_due or (kind == "warning" and deck.change_warned):
            return "already-done"  # a warning after the change-due mark says nothing new
        event = "DeckChangeDue" if kind == "due" else "DeckChangeWarning"
        record(deck, [NewEvent(event, {"deadline_at": deadline,
                                       "limit_basis": deck.limit_basis})],
               system_actor(deck.property, "deck-timer"), None, table=deck.table_id,
               # The stream version, not only the deadline: a deadline changed and changed
               # back (shoe out of order and restored) must warn again.
               idempotency_key=f"{event}:{deck.pk}:{deck.stream_version}")
    return "marked"


def rules_effect_fire(*, rules_id: str) -> list[str]:
    rs = RulesSubmission.objects.select_related("property").filter(pk=rules_id).first()
    if rs is None or rs.state != RulesState.APPROVED:
        return []
    return rules_activate_due(property=rs.property, game=rs.game)


def timers_sweep(now: datetime | None = None) -> dict[str, int]:
    """Every deck past its warning or deadline that is not marked yet, and every Rules
    Submission due to take effect: the safety net for lost timer messages."""
    now = now or timezone.now()
    warn = timedelta(seconds=settings.DECK_CHANGE_WARNING_SECONDS)
    result = {"due": 0, "warning": 0, "rules": 0}
    in_play = Deck.objects.filter(state=DeckState.IN_PLAY, deadline_at__isnull=False)
    for pk, deadline in in_play.filter(change_due=False, deadline_at__lte=now).values_list(
            "pk", "deadline_at"):
        result["due"] += deck_timer_fire(deck_id=str(pk), kind="due",
                                         deadline=deadline.isoformat()) == "marked"
    for pk, deadline in in_play.filter(change_warned=False, change_due=False,
                                       deadline_at__lte=now + warn).values_list(
            "pk", "deadline_at"):
        result["warning"] += deck_timer_fire(deck_id=str(pk), kind="warning",
                                             deadline=deadline.isoformat()) == "marked"
    for prop in Property.objects.filter(pk__in=RulesSubmission.objects.filter(
            state=RulesState.APPROVED, effective_at__lte=now).values("property")):
        result["rules"] += len(rules_activate_due(property=prop, now=now))
    return result
