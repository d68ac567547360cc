"""Demo tables for the README's run command: one table of each kind the issue lists, each
under an approved Rules Submission in effect, with its decks in play. Everything goes
through the real services, so the demo's history is a real event history."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from casino.actors import Actor, actor_of
from casino.models import Property
from tables.domain.catalogue import get_table_game
from tables.domain.rules_options import example_options
from tables.models import Deck, DeckState, GameTable, RulesState, RulesSubmission
from tables import selectors
from tables.services import decks, rules, tables
from tables.services.common import setup_of

# name, game, positions, dealing method, shuffler
DEMO_TABLES = [
    ("LP671-1", "lunar-poker-671a", 5, "automated-shoe", "automated-counting"),
    ("LP589-1", "lunar-poker-589", 5, "manual-shoe", "none"),
    ("HL-1", "five-card-hi-lo", 6, "hand", "automated"),
    ("P-HOLDEM", "holdem", 10, "hand", "automated"),
    ("P-OMAHA8", "omaha-hilo8", 9, "hand", "automated"),
    ("P-STUD", "stud-high", 8, "hand", "none"),
    ("P-TD27", "triple-draw-27", 7, "hand", "automated"),
    ("P-BADUGI", "badugi", 9, "hand", "automated"),
]
COLOURS = ("red", "blue")


def demo_people(prop: Property) -> dict[str, Actor]:
    """The demo's staff (``seed_demo``) as actors, by what they do here."""
    from django.contrib.auth import get_user_model

    User = get_user_model()

    def who(username: str) -> Actor:
        return actor_of(User.objects.get(username=username))
    return {"admin": who("demo_admin"), "compliance": who("demo_compliance"),
            "approver": who("demo_compliance_2"), "floor": who("demo_floorperson"),
            "dealer": who("demo_dealer"), "security": who("demo_security")}


def example_rules_in_effect(p: dict[str, Actor], game: str) -> None:
    """The example Rules Submission of ``game`` drafted, submitted and approved by the demo's
    compliance officers, unless Rules are in effect (or approved to take effect) already."""
    prop = p["admin"].property
    if rules.rules_in_effect(prop, game) is not None:
        return
    if RulesSubmission.objects.filter(property=prop, game=game,
                                      state=RulesState.APPROVED).exists():
        return  # approved with a future effective time: leave it to its timer
    rs = rules.rules_draft(actor=p["compliance"], game=game, options=example_options(game),
                           notes="Demo Rules Submission")
    rules.rules_submit(actor=p["compliance"], rules_id=rs.pk)
    # The 589 example selects a Super Wager paytable, whose house edge is negative read by
    # the letter of 589.6(d)(7): the demo's approver acknowledges it (rules_approve).
    rules.rules_approve(actor=p["approver"], rules_id=rs.pk, acknowledge_negative_house_edge=True)


def deck_ready(table: GameTable, dealer: Actor, floor: Actor, colour: str, *,
               batch: str) -> Deck:
    """A deck received, inspected, verified, spread, washed, shuffled (and cut when the
    shuffle needs it) and put in play at ``table``, through the services."""
    setup = setup_of(table)
    deck = decks.deck_receive(actor=floor, table_id=table.pk, back_colour=colour,
                              batch=f"{batch}-{timezone.now():%Y%m%d}")
    decks.deck_inspect(actor=dealer, deck_id=deck.pk)
    decks.deck_inspection_verify(actor=floor, deck_id=deck.pk, accepted=True)
    decks.deck_spread(actor=dealer, deck_id=deck.pk, players=setup.players_to_spread_for)
    decks.deck_wash(actor=dealer, deck_id=deck.pk)
    deck = decks.deck_shuffle(actor=dealer, deck_id=deck.pk,
                              method="automated" if setup.shuffler_working else "manual")
    if deck.cut_required:
        deck = decks.deck_cut(actor=dealer, deck_id=deck.pk, depth=23)
    return decks.deck_put_in_play(actor=dealer, deck_id=deck.pk)


def keep_decks_in_play(table: GameTable, dealer: Actor, floor: Actor, *, batch: str
                       ) -> tuple[list[Deck], int]:
    """Decks past their time limit (589.3(c)) removed and the pair filled up again, so the
    table always deals: (the decks removed, how many decks were put in play)."""
    now = timezone.now()
    removed = []
    current = selectors.decks_in_play(table)
    for deck in current:
        if deck.change_due or (deck.deadline_at and deck.deadline_at <= now):
            decks.deck_remove(actor=floor, deck_id=deck.pk, reason="time-limit")
            removed.append(deck)
    wanted = setup_of(table).decks_in_play_allowed
    in_play = [d.back_colour for d in current if d not in removed]
    added = 0
    for colour in COLOURS:
        if len(in_play) >= wanted:
            break
        if colour not in in_play:
            deck_ready(table, dealer, floor, colour, batch=batch)
            in_play.append(colour)
            added += 1
    return removed, added


def seed_tables(prop: Property) -> list[str]:
    """Create what is missing; say what was done. Safe to run at every start."""
    p = demo_people(prop)
    notes = []
    for name, game, positions, dealing, shuffler in DEMO_TABLES:
        get_table_game(game)
        example_rules_in_effect(p, game)
        table = GameTable.objects.filter(property=prop, name=name).first()
        if table is None:
            table = tables.table_configure(actor=p["admin"], name=name, game=game,
                                           positions=positions, dealing_method=dealing,
                                           shuffler=shuffler)
            notes.append(f"{name}: configured ({game})")
        if table.dealer_id is None:
            tables.table_assign_dealer(actor=p["floor"], table_id=table.pk, dealer="demo_dealer")
        if table.current_round_id is None and table.status == "closed":
            tables.table_open(actor=p["floor"], table_id=table.pk)
        removed, _ = keep_decks_in_play(GameTable.objects.get(pk=table.pk), p["dealer"],
                                        p["floor"], batch="DEMO")
        notes.extend(f"{name}: replaced overdue {d.back_colour} deck" for d in removed)
    return notes


def summary(prop: Property) -> list[dict[str, Any]]:
    out = []
    for table in GameTable.objects.filter(property=prop).order_by("name"):
        in_play = Deck.objects.filter(table=table, state=DeckState.IN_PLAY)
        out.append({"table": table.name, "game": table.game, "status": table.status,
                    "decks": [(d.back_colour, d.deadline_at) for d in in_play]})
    return out
