"""A table's console page and the list of tables (issue 23, item 4): the game, the rules in
force and the sign they make (the same sections as the printed sign,
:func:`tables.domain.signage.signage_for`), the decks with the time each has left before a
change is due (589.4(h), 637a.3(c): tables.domain.decks), the round in progress, the
house-banked results of today, and what the apps above add (:mod:`tables.console_panels`:
the seats of a poker table, finance's slips and figures). Reads only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from casino.actors import Actor
from casino.scoping import property_row, property_rows
from console.registry import offer
from tables.api.views import TABLE_STAFF
from tables.console_access import console_page
from tables.console_panels import Panel, panels_for, register_panel
from tables.domain.catalogue import get_table_game
from tables.domain.signage import signage_for
from tables.models import Deck, DeckState, GameTable, TableStatus
from tables.selectors import (
    rules_in_force,
    rules_notice,
    table_results,
    with_decks_in_play,
    with_rules_notices,
)
from tables.services.tables import (
    may_put_back_in_service,
    out_of_order_reports,
    second_floorperson_required,
)

#: who reads a table's page and the list: the roles that read tables through the API
#: (``tables.api.views.TABLE_STAFF``, TableList's permission), so the page, its nav item
#: and the API agree on who may read a table
TABLE_PAGE_ROLES = TABLE_STAFF
#: a deck still in the table's life (not removed, destroyed or cancelled)
LIVE_DECKS = (DeckState.RECEIVED, DeckState.INSPECTED, DeckState.VERIFIED, DeckState.SPREAD,
              DeckState.WASHED, DeckState.SHUFFLED, DeckState.READY, DeckState.IN_PLAY)


def time_left(deadline: datetime | None, now: datetime) -> dict[str, Any]:
    """A deck's change deadline as the floor reads it: "2 h 05 min left", or how long ago
    it passed ("change overdue by 0 h 10 min"); none for a deck not yet in play."""
    if deadline is None:
        return {"text": "no change timer", "overdue": False, "minutes": None}
    minutes = int((deadline - now).total_seconds() // 60)
    h, m = divmod(abs(minutes), 60)
    if minutes < 0:
        return {"text": f"change overdue by {h} h {m:02d} min", "overdue": True,
                "minutes": minutes}
    return {"text": f"{h} h {m:02d} min left", "overdue": False, "minutes": minutes}


def _deck_actions(actor: Actor, deck: Deck) -> list[dict[str, str]]:
    """Links to the forms of the next steps of a deck's life (the declared commands) that
    the viewer's roles may take (:func:`console.registry.offer`)."""
    steps = {
        DeckState.RECEIVED: [("deck_inspect", "Record the inspection")],
        DeckState.INSPECTED: [("deck_inspection_verify", "Verify the inspection")],
        DeckState.VERIFIED: [("deck_spread", "Spread the deck")],
        DeckState.SPREAD: [("deck_wash", "Wash the deck")],
        DeckState.WASHED: [("deck_shuffle", "Shuffle the deck"),
                           ("deck_shuffle_jam", "Record the shuffler jammed")],
        DeckState.SHUFFLED: [("deck_cut", "Cut the deck")],
        DeckState.READY: [("deck_put_in_play", "Put the deck in play")],
        DeckState.IN_PLAY: [("deck_count", "Count the deck"),
                            ("deck_remove", "Remove the deck")],
    }.get(deck.state, [])
    return [a for name, label in steps if (a := offer(actor, label, name, deck.pk))]


def _table_actions(actor: Actor, table: GameTable, decks: list[Deck]) -> list[dict[str, str]]:
    """The table's next steps the viewer's roles may take. A round is opened on the table
    with its deck in play (``round_open`` takes no id: its input names both)."""
    game = get_table_game(table.game)
    actions: list[tuple[str, str, Any, dict[str, Any]]] = []
    if table.status == TableStatus.OPEN:
        actions.append(("Close the table", "table_close", table.pk, {}))
        if not game.is_poker and table.current_round_id is None:
            in_play = next((d.pk for d in decks if d.state == DeckState.IN_PLAY), None)
            actions.append(("Open a round", "round_open", None,
                            {"table": table.pk, "deck": in_play}))
    else:
        actions.append(("Open the table", "table_open", table.pk, {}))
    actions += [("Assign the dealer", "table_assign_dealer", table.pk, {}),
                ("Receive a deck", "deck_receive", None, {"table": table.pk}),
                # finance's declared command, named by its form's URL only (no import)
                ("Request a fill", "slip_request", table.pk, {"kind": "fill"}),
                ("Request a credit", "slip_request", table.pk, {"kind": "credit"})]
    return [a for label, name, pk, initial in actions
            if (a := offer(actor, label, name, pk, **initial))]


#: what the floor does while a device is out of order (637a.18(r), 589.13(g), 671a.13(g),
#: 579.13(f)): the other method, and who may put the device back
WHILE_OUT = {
    "shuffler": "Shuffle every deck by hand and cut it until the shuffler is back in service.",
    "shoe": "Deal by hand (the deck's limit is then four hours) until the shoe is back in "
            "service.",
}


@register_panel
def equipment_panel(request: HttpRequest, actor: Actor, table: GameTable) -> Panel | None:
    """The devices out of order at the table: covered or signed, who reported it and when,
    what the floor does meanwhile, and the link to put it back in service (a floorperson;
    not the reporter while the house's control is on)."""
    reports = out_of_order_reports(table)
    if not reports:
        return None
    second_person = second_floorperson_required()
    rows = [{**r, "while_out": WHILE_OUT[device], "second_person": second_person,
             "restore": offer(actor, f"Put the {device} back in service", "table_equipment",
                              table.pk, device=device, out_of_order="false")
             if may_put_back_in_service(actor, r) else None}
            for device, r in sorted(reports.items())]
    return Panel(title="Equipment out of order", template="tables/console/_equipment.html",
                 context={"reports": rows}, order=5)


@console_page(*TABLE_PAGE_ROLES)
def table_list(request: HttpRequest, actor: Actor) -> HttpResponse:
    """Every table of the property: game, status, dealer, decks in play and their time
    left, whether a round is on. A fixed number of queries for any number of tables."""
    now = timezone.now()
    tables = with_rules_notices(with_decks_in_play(
        property_rows(GameTable.objects.all(), actor).order_by("name")))
    rows = [{"table": t, "game": get_table_game(t.game).name,
             "decks": [{"deck": d, "left": time_left(d.deadline_at, now)}
                       for d in getattr(t, "decks_in_play", [])],
             "notice": rules_notice(t)} for t in tables]
    return render(request, "tables/console/table_list.html", {"rows": rows, "now": now})


@console_page(*TABLE_PAGE_ROLES)
def table_page(request: HttpRequest, actor: Actor, pk: Any) -> HttpResponse:
    table = property_row(GameTable.objects.select_related("dealer"), actor, pk, what="table")
    now = timezone.now()
    game = get_table_game(table.game)
    rules = rules_in_force(table.property, table.game, now)
    sign = None
    if rules is not None:
        sign = {**signage_for(table.game, rules.options),
                "rules_version_number": rules.version_number,
                "effective_since": rules.took_effect_at or rules.effective_at}
    live = list(Deck.objects.filter(table=table, state__in=LIVE_DECKS).order_by("received_at"))
    decks = [{"deck": d, "left": time_left(d.deadline_at, now),
              "actions": _deck_actions(actor, d)} for d in live]
    day = actor.gaming_day(now)
    return render(request, "tables/console/table_page.html", {
        "table": table, "game": game, "rules": rules, "sign": sign,
        "notice": rules_notice(table), "decks": decks, "now": now,
        "round": table.current_round_id, "gaming_day": day,
        "results": [] if game.is_poker else table_results(table, day),
        "actions": _table_actions(actor, table, live),
        "panels": panels_for(request, actor, table)})
