"""Read models of the tables app: Rules Submissions, tables, decks, rounds and the card
inventory log. They are projections of events (:mod:`tables.projections`) and can be
dropped and rebuilt; the services are the only writers of events.

The state machines use django-fsm: the projection calls the transition when it applies
the event, and services ask ``can_proceed`` before they append one, so the graph of
allowed steps is written once, here.
"""

from __future__ import annotations

import builtins
import uuid

from django.conf import settings
from django.db import models
from django_fsm import FSMField, transition

from casino.models import Property
from tables.domain.catalogue import GAMES
from tables.domain.decks import DealingMethod, RemovalReason, Shuffler

GAME_CHOICES = [(g.id, g.name) for g in GAMES.values()]


class RulesState(models.TextChoices):
    DRAFT = "draft"
    SUBMITTED = "submitted"
    APPROVED = "approved"
    IN_EFFECT = "in_effect"
    SUPERSEDED = "superseded"
    WITHDRAWN = "withdrawn"


class RulesSubmission(models.Model):
    """One version of a property's filed rules for one game (601a.2)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=40, choices=GAME_CHOICES)
    version_number = models.PositiveIntegerField()
    options = models.JSONField()
    notes = models.TextField(blank=True)
    state = FSMField(default=RulesState.DRAFT, choices=RulesState.choices)
    drafted_by = models.CharField(max_length=150)
    revised_by = models.JSONField(default=list)  # usernames that edited the draft
    submitted_by = models.CharField(max_length=150, blank=True)
    approved_by = models.CharField(max_length=150, blank=True)
    effective_at = models.DateTimeField(null=True, blank=True)
    took_effect_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    superseded_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="+")
    # Withdrawal (four eyes for a version in effect): who asked, why and when; kept on the
    # withdrawn version. A one-step withdrawal (a version never in effect) fills them with
    # the one officer who withdrew it.
    withdrawal_requested_by = models.CharField(max_length=150, blank=True)
    withdrawal_reason = models.TextField(blank=True)
    withdrawal_requested_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.CharField(max_length=150, blank=True)  # who confirmed it
    created_at = models.DateTimeField()
    stream_version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["property", "game", "version_number"],
                                    name="rules_version_unique"),
            # At most one version of a game in effect at a property at any time.
            models.UniqueConstraint(fields=["property", "game"],
                                    condition=models.Q(state="in_effect"),
                                    name="rules_one_in_effect"),
            # A withdrawal is asked for only of a version in effect, and ends with it
            # withdrawn (or superseded, which ends the request: the fields are cleared).
            models.CheckConstraint(condition=models.Q(withdrawal_requested_by="")
                                   | models.Q(state__in=["in_effect", "withdrawn"]),
                                   name="rules_withdrawal_request_state"),
            models.CheckConstraint(condition=models.Q(withdrawn_by="")
                                   | models.Q(state="withdrawn"),
                                   name="rules_withdrawn_by_state"),
        ]
        ordering = ["game", "-version_number"]

    def __str__(self) -> str:
        return f"{self.game} v{self.version_number} ({self.state})"

    @builtins.property
    def stream_id(self) -> str:
        return f"rules-{self.id}"

    @builtins.property
    def withdrawal_pending(self) -> bool:
        """A compliance officer has asked to withdraw this version in effect and no second
        officer has confirmed (or anyone cancelled) it yet."""
        return self.state == RulesState.IN_EFFECT and bool(self.withdrawal_requested_by)

    @transition(field=state, source=RulesState.DRAFT, target=RulesState.DRAFT)
    def revise(self) -> None: ...

    @transition(field=state, source=RulesState.DRAFT, target=RulesState.SUBMITTED)
    def submit(self) -> None: ...

    @transition(field=state, source=RulesState.SUBMITTED, target=RulesState.DRAFT)
    def return_to_draft(self) -> None: ...

    @transition(field=state, source=RulesState.SUBMITTED, target=RulesState.APPROVED)
    def approve(self) -> None: ...

    @transition(field=state, source=RulesState.APPROVED, target=RulesState.IN_EFFECT)
    def take_effect(self) -> None: ...

    @transition(field=state, source=[RulesState.IN_EFFECT, RulesState.APPROVED],
                target=RulesState.SUPERSEDED)
    def supersede(self) -> None: ...

    # A version no table depends on is withdrawn in one step.
    @transition(field=state, source=[RulesState.DRAFT, RulesState.SUBMITTED,
                                     RulesState.APPROVED],
                target=RulesState.WITHDRAWN)
    def withdraw(self) -> None: ...

    # A version in effect: one compliance officer asks, it stays in effect...
    @transition(field=state, source=RulesState.IN_EFFECT, target=RulesState.IN_EFFECT)
    def request_withdrawal(self) -> None: ...

    # ... until the request is cancelled,
    @transition(field=state, source=RulesState.IN_EFFECT, target=RulesState.IN_EFFECT)
    def cancel_withdrawal(self) -> None: ...

    # ... or another officer confirms it and it leaves effect. (Events recorded before the
    # two-step withdrawal withdrew a version in effect in one step; they replay here too.)
    @transition(field=state, source=RulesState.IN_EFFECT, target=RulesState.WITHDRAWN)
    def confirm_withdrawal(self) -> None: ...


class TableStatus(models.TextChoices):
    CLOSED = "closed"
    OPEN = "open"


class GameTable(models.Model):
    """A gaming table: its game, positions and equipment (589.2, 637a.2)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=40)
    game = models.CharField(max_length=40, choices=GAME_CHOICES)
    positions = models.PositiveSmallIntegerField()
    dealing_method = models.CharField(max_length=20, choices=[(m.value, m.value)
                                                              for m in DealingMethod])
    shuffler = models.CharField(max_length=20, choices=[(s.value, s.value) for s in Shuffler])
    shuffler_out_of_order = models.BooleanField(default=False)
    shoe_out_of_order = models.BooleanField(default=False)
    status = FSMField(default=TableStatus.CLOSED, choices=TableStatus.choices)
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.PROTECT, related_name="+")
    rounds_played = models.PositiveIntegerField(default=0)
    last_deck = models.ForeignKey("Deck", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    current_round = models.ForeignKey("Round", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="+")
    created_at = models.DateTimeField()
    stream_version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["property", "name"], name="table_name_unique"),
            models.CheckConstraint(condition=models.Q(positions__gte=1, positions__lte=10),
                                   name="table_positions_range"),
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    @builtins.property
    def stream_id(self) -> str:
        return f"table-{self.id}"

    @transition(field=status, source=TableStatus.CLOSED, target=TableStatus.OPEN)
    def open(self) -> None: ...

    @transition(field=status, source=TableStatus.OPEN, target=TableStatus.CLOSED)
    def close(self) -> None: ...

    @transition(field=status, source=TableStatus.CLOSED, target=TableStatus.CLOSED)
    def reconfigure(self) -> None: ...


class DeckState(models.TextChoices):
    RECEIVED = "received"
    INSPECTED = "inspected"
    VERIFIED = "verified"
    SPREAD = "spread"
    WASHED = "washed"
    SHUFFLED = "shuffled"
    READY = "ready"
    IN_PLAY = "in_play"
    REMOVED = "removed"
    DESTROYED = "destroyed"
    CANCELLED = "cancelled"


_LIVE = [DeckState.RECEIVED, DeckState.INSPECTED, DeckState.VERIFIED, DeckState.SPREAD,
         DeckState.WASHED, DeckState.SHUFFLED, DeckState.READY, DeckState.IN_PLAY]


class Deck(models.Model):
    """One deck of cards from receipt to destruction (589.4, 637a.4, 603a.16)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(GameTable, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="decks")
    back_colour = models.CharField(max_length=30)
    batch = models.CharField(max_length=60)
    preinspected = models.BooleanField(default=False)
    state = FSMField(default=DeckState.RECEIVED, choices=DeckState.choices)
    defects = models.JSONField(default=list)
    cut_required = models.BooleanField(default=True)
    entered_play_at = models.DateTimeField(null=True, blank=True)
    limit_basis = models.CharField(max_length=10, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True)
    change_warned = models.BooleanField(default=False)
    change_due = models.BooleanField(default=False)
    rounds_dealt = models.PositiveIntegerField(default=0)
    rounds_since_count = models.PositiveIntegerField(default=0)
    removal_reason = models.CharField(max_length=20, blank=True,
                                      choices=[(r.value, r.value) for r in RemovalReason])
    received_at = models.DateTimeField()
    stream_version = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["state", "deadline_at"], name="deck_timer_idx")]
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"{self.back_colour} deck {str(self.id)[:8]} ({self.state})"

    @builtins.property
    def stream_id(self) -> str:
        return f"deck-{self.id}"

    @transition(field=state, source=DeckState.RECEIVED, target=DeckState.INSPECTED)
    def inspect(self) -> None: ...

    @transition(field=state, source=DeckState.INSPECTED, target=DeckState.VERIFIED)
    def verify(self) -> None: ...

    # From VERIFIED at opening (589.4(b)); from READY or IN_PLAY when a table open for
    # gaming has had no activity and the cards are spread again (589.5(f), 637a.5(d)).
    @transition(field=state, source=[DeckState.VERIFIED, DeckState.READY, DeckState.IN_PLAY],
                target=DeckState.SPREAD)
    def spread(self) -> None: ...

    @transition(field=state, source=DeckState.SPREAD, target=DeckState.WASHED)
    def wash(self) -> None: ...

    @transition(field=state, source=[DeckState.WASHED, DeckState.READY], target=DeckState.SHUFFLED)
    def shuffle(self) -> None: ...

    # A shuffler jammed mid-shuffle: shuffled again before anything else (637a.18(q)).
    @transition(field=state, source=[DeckState.WASHED, DeckState.READY], target=DeckState.WASHED)
    def jam(self) -> None: ...

    @transition(field=state, source=DeckState.SHUFFLED, target=DeckState.READY)
    def make_ready(self) -> None: ...

    @transition(field=state, source=DeckState.READY, target=DeckState.SHUFFLED)
    def order_recut(self) -> None: ...

    @transition(field=state, source=DeckState.READY, target=DeckState.IN_PLAY)
    def put_in_play(self) -> None: ...

    @transition(field=state, source=_LIVE, target=DeckState.REMOVED)
    def remove(self) -> None: ...

    @transition(field=state, source=DeckState.REMOVED, target=DeckState.DESTROYED)
    def destroy(self) -> None: ...

    @transition(field=state, source=DeckState.REMOVED, target=DeckState.CANCELLED)
    def cancel(self) -> None: ...


class DeckStep(models.Model):
    """One signed step in a deck's life: the rows of the card inventory report."""

    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="steps")
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    step = models.CharField(max_length=30)
    gaming_day = models.DateField(db_index=True)
    at = models.DateTimeField()
    actor = models.CharField(max_length=150)
    role = models.CharField(max_length=40, blank=True)
    credential_number = models.CharField(max_length=50, blank=True)
    details = models.JSONField(default=dict)
    stream_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.UniqueConstraint(fields=["deck", "stream_version"],
                                               name="deck_step_once")]


class RoundState(models.TextChoices):
    OPEN = "open"
    CLOSED = "closed"


class Round(models.Model):
    """A round of play at a table, as far as deck control needs it: which deck, which
    rules version. The wagers and cards of banked rounds build on this."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="+")
    rules = models.ForeignKey(RulesSubmission, on_delete=models.PROTECT, related_name="+")
    rules_version_number = models.PositiveIntegerField()
    dealing_method = models.CharField(max_length=20)
    state = FSMField(default=RoundState.OPEN, choices=RoundState.choices)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    stream_version = models.PositiveIntegerField(default=0)
    #: A house-banked round's domain state at ``snapshot_version`` (DESIGN §2: the command
    #: runner loads it instead of replaying the stream; ``casino.command_runner``).
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    snapshot_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "number"],
                                               name="round_number_unique")]
        ordering = ["-opened_at"]

    @builtins.property
    def stream_id(self) -> str:
        return f"round-{self.id}"

    @transition(field=state, source=RoundState.OPEN, target=RoundState.CLOSED)
    def close(self) -> None: ...


class TableResult(models.Model):
    """What a table's house-banked rounds did in one gaming day for one wager type: the
    amounts wagered, returned to players and won by the house, and the rounds closed. The
    row with wager ``all`` adds up every wager type and counts each round once. A
    projection of ``RoundClosed`` (589.11(f), 579.11(l))."""

    ALL = "all"

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, related_name="results")
    gaming_day = models.DateField()
    wager = models.CharField(max_length=30)
    wagered = models.BigIntegerField(default=0)
    returned = models.BigIntegerField(default=0)
    house_win = models.BigIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "gaming_day", "wager"],
                                    name="table_result_once"),
            models.CheckConstraint(condition=models.Q(house_win=models.F("wagered")
                                                      - models.F("returned")),
                                   name="table_result_house_win"),
        ]
        ordering = ["gaming_day", "table", "wager"]

    def __str__(self) -> str:
        return f"{self.table_id} {self.gaming_day} {self.wager}"
