"""The rounds and hands behind a table's gaming-day figures, and the table day's finance
events: what a report's figure is made of, one click from the report.

* Each round (house-banked) or hand (poker) of the table opened or closed within the
  gaming day's bounds (``casino.domain.gaming_day.gaming_day_bounds``): its number, times
  and state; a banked round's amounts from its ``RoundClosed`` (wagered, returned, house
  win: 589.11(f), 671a.11(f), 579.11(g)-(i)); a hand's pot, rake (``RakeTaken``, 637a.17(b)(1)
  -(2)) and jackpot contributions (``JackpotContributed``, 637a.15(c), 637a.16(c)); with a
  link to the round's reconstruction or the hand's history step by step (637a.18(a)).
* The time charges assessed and verified for the day (637a.17(b)(3)(iv)-(v)).
* The finance events of the table day: inventory slips, chip sales, fill and credit slips
  with each signature, the drop box from removal to acceptance, the variances; each with
  its person, role, credential and time.
* Totals from those events, beside the figures the reports print
  (:func:`finance.figures.frozen`), so a reader sees they agree.

A figure counts on the gaming day its event was recorded for (the event's
``gaming_day``), as the read models add them up (``tables.projections._add_results``,
``poker_room.projections.RakeLedgerProjection``): a round that straddles the day's start
is listed on both days and counted on one.

Scoped to the caller's property (404 ``table_not_found`` otherwise). Reads only.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db.models import Q

from casino.actors import Actor
from casino.domain.gaming_day import gaming_day_bounds
from casino.domain.money import format_money
from casino.domain.wall_clock import iso_with_offset
from casino.eventstore.models import Event
from casino.eventstore.reading import read_stream
from casino.scoping import property_row
from finance.domain.reconcile import BANKED, POKER
from finance.domain.table_day import CLOSER, CREDIT, FILL, OPENER, fold, slip_number
from finance.figures import frozen, table_day_figures
from finance.models import GamingDay, table_day_stream
from poker_room.domain import pot_figures
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, Round

#: the events of a round or hand stream whose amounts make the day's figures
ROUND_EVENTS = ("RoundClosed", "RakeTaken", "JackpotContributed", "HandCompleted",
                "HandVoided", "MisdealDeclared", "HandFouled")
TIME_CHARGE_EVENTS = ("TimeChargeAssessed", "TimeChargeVerified")
#: the figures the events' totals are checked against (finance.figures.frozen's keys),
#: with the words a supervisor reads
CHECKED = {"banked_win_cents": "house win of the rounds", "rake_cents": "rake",
           "time_charges_cents": "time charges (verified)", "chip_sales_cents": "chip sales",
           "fills_cents": "fills", "credits_cents": "credits", "opener_cents": "opener",
           "closer_cents": "closer", "drop_counted_cents": "counted drop"}


def round_link(round_id: Any, kind: str) -> str:
    """The round's reconstruction (house-banked), or the hand step by step (poker)."""
    if kind == POKER:
        return f"/api/v1/hands/{round_id}/history/steps/"
    return f"/api/v1/rounds/{round_id}/reconstruction"


def page_link(table_id: Any, day: date) -> str:
    return f"/finance/behind/{table_id}/{day.isoformat()}/"


def _rounds(table: GameTable, kind: str, day: date, start: datetime, end: datetime
            ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(each round or hand with its amounts, the day's totals from their events)."""
    tz = table.property.time_zone
    rounds = list(Round.objects.filter(table=table).filter(
        Q(opened_at__gte=start, opened_at__lt=end) | Q(closed_at__gte=start, closed_at__lt=end))
        .order_by("number"))
    streams = {r.stream_id: r for r in rounds}
    rows: dict[str, dict[str, Any]] = {}
    for r in rounds:
        row: dict[str, Any] = {
            "round_id": str(r.pk), "number": r.number, "state": r.state,
            "opened_at": iso_with_offset(r.opened_at, time_zone=tz) if r.opened_at else None,
            "closed_at": iso_with_offset(r.closed_at, time_zone=tz) if r.closed_at else None,
            "counted_on": None, "reconstruction": round_link(r.pk, kind)}
        if kind == BANKED:
            row.update(wagered_cents=None, returned_cents=None, house_win_cents=None,
                       void=False)
        else:
            row.update(gross_pot_cents=None, pot_cents=None, rake_cents=0,
                       rake_returned_cents=0, contributions={}, contributed_cents=0,
                       voided=False)
        rows[r.stream_id] = row
    totals: dict[str, Any] = (
        {"rounds": 0, "wagered_cents": 0, "returned_cents": 0, "house_win_cents": 0}
        if kind == BANKED else
        {"hands": 0, "rake_cents": 0, "rake_returned_cents": 0, "contributed_cents": 0,
         "contributions": {}})
    # the streams are those of the caller's property's table (property_row): already
    # scoped, and filtering the events by their metadata's property as well makes
    # PostgreSQL scan the property's whole log instead of the streams' index
    events = sorted(Event.objects.filter(stream_id__in=list(streams), type__in=ROUND_EVENTS),
                    key=lambda e: e.position)
    iso = day.isoformat()
    completed_rake: dict[str, int] = {}  # each ended hand's rake, for its Pot (637a.1)
    for e in events:
        row, d = rows[e.stream_id], e.data
        today = (e.metadata or {}).get("gaming_day") == iso
        if e.type == "RoundClosed" and "by_wager" in d:
            row.update(wagered_cents=d["wagered"], returned_cents=d["returned"],
                       house_win_cents=d["wagered"] - d["returned"], void=bool(d.get("void")),
                       counted_on=e.metadata.get("gaming_day"))
            if today:
                totals["rounds"] += 1
                totals["wagered_cents"] += d["wagered"]
                totals["returned_cents"] += d["returned"]
                totals["house_win_cents"] += d["wagered"] - d["returned"]
        elif e.type == "RakeTaken":
            row["rake_cents"] += d["amount"]
            totals["rake_cents"] += d["amount"] if today else 0
        elif e.type == "JackpotContributed":
            row["contributions"][d["fund"]] = row["contributions"].get(d["fund"], 0) \
                + d["amount_cents"]
            row["contributed_cents"] += d["amount_cents"]
            if e.stream_id in completed_rake:  # recorded after the hand's end: its Pot again
                row["pot_cents"] = pot_figures.pot_after(
                    row["gross_pot_cents"], completed_rake[e.stream_id], row["contributed_cents"])
            if today:
                totals["contributed_cents"] += d["amount_cents"]
                totals["contributions"][d["fund"]] = \
                    totals["contributions"].get(d["fund"], 0) + d["amount_cents"]
        elif e.type in ("HandVoided", "MisdealDeclared", "HandFouled"):
            row["rake_returned_cents"] += d.get("rake_returned", 0)
            totals["rake_returned_cents"] += d.get("rake_returned", 0) if today else 0
        elif e.type == "HandCompleted":
            # 637a.1: the Pot is what is left after the rake and the contributions
            gross = d.get("pot")
            if gross is not None:
                completed_rake[e.stream_id] = d.get("rake", 0)
            row.update(gross_pot_cents=gross,
                       pot_cents=None if gross is None else pot_figures.pot_after(
                           gross, d.get("rake", 0), row["contributed_cents"]),
                       voided=bool(d.get("voided")), counted_on=e.metadata.get("gaming_day"))
            totals["hands"] += int(today and not d.get("voided"))
    # contributions in the one shape of the API: [{fund, amount_cents}]
    for row in rows.values():
        if "contributions" in row:
            row["contributions"] = pot_figures.as_list(row["contributions"])
    if "contributions" in totals:
        totals["contributions"] = pot_figures.as_list(totals["contributions"])
    return list(rows.values()), totals


def _time_charges(table: GameTable, day: date) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The day's time-charge periods (637a.17(b)(3)(iv)-(v)): assessed, then verified by
    a floorperson; only verified charges are revenue."""
    tz = table.property.time_zone
    periods: dict[str, dict[str, Any]] = {}
    events = sorted(Event.objects.filter(  # the stream of the caller's table: scoped
        stream_id=f"poker_table-{table.pk}", type__in=TIME_CHARGE_EVENTS,
        data__gaming_day=day.isoformat()), key=lambda e: e.position)
    for e in events:
        d = e.data
        p = periods.setdefault(d["period_start"], {
            "period_start": iso_with_offset(datetime.fromisoformat(d["period_start"]),
                                            time_zone=tz),
            "charges": {}, "total_cents": 0,
            "assessed_by": "", "assessed_at": None, "verified_by": "", "verified_at": None})
        if e.type == "TimeChargeAssessed":
            p.update(charges=d["charges"], total_cents=d["total_cents"],
                     assessed_by=e.metadata.get("actor", ""),
                     assessed_at=iso_with_offset(e.recorded_at, time_zone=tz))
        else:
            p.update(verified_by=e.metadata.get("actor", ""),
                     verified_at=iso_with_offset(e.recorded_at, time_zone=tz))
    rows = list(periods.values())
    verified = sum(p["total_cents"] for p in rows if p["verified_at"])
    pending = sum(p["total_cents"] for p in rows if not p["verified_at"])
    return rows, {"time_charges_cents": verified, "time_charges_pending_cents": pending}


def _said(type_: str, d: dict[str, Any]) -> str:
    """One finance event in words."""
    money = lambda c: format_money(c) if isinstance(c, int) else "—"  # noqa: E731
    slip = slip_number(d.get("slip_id", ""))
    return {
        "InventorySlipRecorded": f"{d.get('slip')} inventory recorded: "
                                 f"{money(d.get('total_cents'))}",
        "InventorySlipSigned": f"{d.get('slip')} inventory signed",
        "ChipsSold": f"chips sold for cash: {money(d.get('amount_cents'))}",
        "SlipRequested": f"{d.get('kind')} slip {slip} requested: "
                         f"{money(d.get('total_cents'))}",
        "SlipPrepared": f"slip {slip} prepared at the cage",
        "SlipCarried": f"slip {slip} carried to the table",
        "SlipCompleted": f"slip {slip} signed at the table",
        "SlipVoided": f"slip {slip} voided: {d.get('reason', '')}",
        "DropBoxRemoved": "drop box removed",
        "DropCounted": f"drop counted: {money(d.get('counted_cents'))}",
        "DropCountSigned": "drop count signed",
        "DropCountAccepted": "drop count accepted",
        "VarianceRecorded": f"{d.get('figure')} variance {money(d.get('variance_cents'))}"
                            + (" (after the close)" if d.get("after_close") else ""),
        "VarianceRevised": f"{d.get('figure')} variance revised at the close: "
                           f"{money(d.get('variance_cents'))}",
        "VarianceExplained": f"variance explained: {d.get('explanation', '')}",
        "VarianceSignedOff": "variance signed off",
    }.get(type_, type_)


_SLIP_STEP = {"SlipRequested": "requested", "SlipPrepared": "prepared",
              "SlipCarried": "carried", "SlipCompleted": "completed", "SlipVoided": "voided"}
_DROP_STEP = {"DropBoxRemoved": "removed", "DropCounted": "counted",
              "DropCountSigned": "signed", "DropCountAccepted": "accepted"}


def _finance(table: GameTable, day: date) -> dict[str, Any]:
    """The table day's finance stream: every event, the inventory slips, the fill and
    credit slips and the drop box each with their signatures, and the totals."""
    tz = table.property.time_zone
    recorded = read_stream(table_day_stream(table.pk, day))
    events: list[dict[str, Any]] = []
    inventories: dict[str, dict[str, Any]] = {}
    slips: dict[str, dict[str, Any]] = {}
    drop: dict[str, Any] = {"state": "in_play", "steps": []}
    for e in recorded:
        d, m = e.data, e.metadata or {}
        step = {"step": e.type, "by": m.get("actor", ""), "role": m.get("role", ""),
                "credential_number": m.get("credential_number", ""),
                "at": iso_with_offset(e.recorded_at, time_zone=tz)}
        # a variance's amount is the variance (its data also holds the counted figure,
        # which the count's own event lists)
        amount = d.get("variance_cents") if e.type == "VarianceRecorded" else \
            d.get("amount_cents", d.get("total_cents", d.get("counted_cents")))
        events.append({**step, "event": e.type, "what": _said(e.type, d),
                       "amount_cents": amount})
        if e.type == "InventorySlipRecorded":
            inventories[d["slip"]] = {"slip": d["slip"], "pieces": d["pieces"],
                                      "total_cents": d["total_cents"], "state": "recorded",
                                      "steps": [step]}
        elif e.type == "InventorySlipSigned":
            inventories[d["slip"]].update(state="signed")
            inventories[d["slip"]]["steps"].append(step)
        elif e.type in _SLIP_STEP:
            if e.type == "SlipRequested":
                slips[d["slip_id"]] = {"slip_id": d["slip_id"], "kind": d["kind"],
                                       "pieces": d["pieces"], "total_cents": d["total_cents"],
                                       "steps": [], "void_reason": ""}
            s = slips[d["slip_id"]]
            s["state"] = _SLIP_STEP[e.type]
            s["steps"].append(step)
            if e.type == "SlipVoided":
                s["void_reason"] = d.get("reason", "")
        elif e.type in _DROP_STEP:
            drop["state"] = _DROP_STEP[e.type]
            drop["steps"].append(step)
            if e.type == "DropCounted":
                drop.update(cash=d.get("cash", {}), chips=d.get("chips", {}),
                            counted_cents=d.get("counted_cents"))
    state = fold((e.type, e.data, e.metadata) for e in recorded)
    totals = {
        "opener_cents": state.inventory_cents(OPENER),
        "closer_cents": state.inventory_cents(CLOSER),
        "chip_sales_cents": state.chip_sales_cents, "chip_sales_count": state.chip_sales,
        "fills_cents": state.slips_cents(FILL), "credits_cents": state.slips_cents(CREDIT),
        "drop_counted_cents": state.drop.get("counted_cents")
        if state.drop["state"] == "accepted" else None}
    variances = [{k: v for k, v in x.items() if k != "signers"}
                 for x in state.variances.values()]
    return {"events": events, "inventories": [inventories[k] for k in (OPENER, CLOSER)
                                               if k in inventories],
            "slips": list(slips.values()), "drop": drop, "variances": variances,
            "totals": totals}


def table_day_behind(actor: Actor, table_id: Any, day: date) -> dict[str, Any]:
    """Everything behind the table's figures for gaming day ``day`` (module docstring)."""
    table = property_row(GameTable.objects.select_related("property"), actor, table_id,
                         what="table")
    prop = table.property
    kind = POKER if table.game in POKER_GAMES else BANKED
    start, end = gaming_day_bounds(day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    rounds, round_totals = _rounds(table, kind, day, start, end)
    periods, tc_totals = _time_charges(table, day) if kind == POKER else ([], {})
    finance = _finance(table, day)
    from_events: dict[str, Any] = {**finance["totals"], **round_totals, **tc_totals}
    from_events["banked_win_cents"] = round_totals.get("house_win_cents", 0)
    from_events.setdefault("rake_cents", 0)
    from_events.setdefault("time_charges_cents", 0)
    live = table_day_figures(prop, day, table_ids=[table.pk]).get(table.pk)
    figures = frozen(*live) if live else None
    checks = []
    # the rake a misdeal, a void or a fouled hand's refund gave back never reached the
    # drop box (637a.18(g), (i), (k)(3)): the report counts the rake kept
    kept = {**from_events, "rake_cents": from_events["rake_cents"]
            - from_events.get("rake_returned_cents", 0)}
    for k in CHECKED:
        ours, theirs = kept.get(k), figures.get(k) if figures else None
        # no figures at all: the table did nothing the read models hold; nor may the events
        checks.append({"figure": k, "label": CHECKED[k], "from_events": ours, "report": theirs,
                       "agrees": ours == theirs if figures else not ours})
    closed = GamingDay.objects.filter(property=prop, gaming_day=day, state="closed").first()
    return {
        "table_id": str(table.pk), "table": table.name, "game": table.game, "kind": kind,
        "gaming_day": day.isoformat(), "starts_at": iso_with_offset(start, time_zone=prop.time_zone),
        "ends_at": iso_with_offset(end, time_zone=prop.time_zone),
        "day_state": closed.state if closed else "open",
        "rounds": rounds, "time_charges": periods,
        "finance_events": finance["events"], "inventories": finance["inventories"],
        "slips": finance["slips"], "drop": finance["drop"], "variances": finance["variances"],
        "totals": from_events, "figures": figures, "checks": checks,
        "frozen": closed.figures.get(str(table.pk)) if closed else None,
    }


def table_day_record(actor: Actor, table_id: Any, day: date) -> dict[str, Any]:
    """The table day's finance record alone (inventory slips, fill and credit slips, the
    drop box, each step with its person, role, credential and time), as
    :func:`table_day_behind` gives it, without the rounds: what the printables of the
    console print (``finance.console_pages``). Scoped: 404 ``table_not_found``."""
    table = property_row(GameTable.objects.select_related("property"), actor, table_id,
                         what="table")
    return {"table_id": str(table.pk), "table": table.name, "game": table.game,
            "gaming_day": day.isoformat(), **_finance(table, day)}
