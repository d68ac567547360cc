"""jackpots's console pages (console.registry.page): the printables of the jackpot funds
(issue 23, item 5), each on US Letter with the chapter's signature lines, from the same
reads the API answers with (:mod:`jackpots.selectors`), no figure worked out twice:

* ``/console/print/jackpots/<fund>/counts/<count>/`` — the count of a fund's payout
  boxes: each box, what it should hold and what was counted, and who signed each step of
  the chain of custody: at a closed table the dealer counts and the floorperson or above
  who watched signs, security carries the locked container, a cashier verifies the
  aggregate (§ 637a.15(d)(1), (e); § 637a.16(d)(1), (e)); at the cage a floorperson or
  above accounts for the boxes, security carries them, a cashier counts each
  (§ 637a.15(d)(2), (e); § 637a.16(d)(2), (e)).
* ``/console/print/jackpots/<fund>/high-hands/<period>/`` — the High Hand Tracking Slip
  of a qualifying period with every item of § 637a.16(f)(1)-(5) on each line.
* ``/console/print/jackpots/<fund>/bad-beats/<hand>/`` — the Bad Beat payout record: the
  hand the poker shift supervisor verified (§ 637a.15(f)), the payout and its shares, who
  paid it where, each player paid with the identification shown (§ 637a.15(g)).

Every page is scoped to the viewer's property (another property's fund or row is 404)
and needs a role that reads it through the API (403 otherwise). :func:`printable` is the
one guard, used by finance's printables too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from casino.actors import Actor, actor_of
from casino.domain.errors import DomainError, NotFoundError
from casino.roles import Role
from console.registry import page
from jackpots import selectors
from jackpots.api.views import COUNT_READERS, FUND_READERS
from jackpots.models import BAD_BEAT

# -- the one guard of the printables ----------------------------------------------------


def printable(roles: tuple[Role, ...]) -> Callable:
    """A printable's view: a signed-in staff member with one of ``roles`` (403 otherwise),
    called as ``view(request, actor, **kwargs)``; a row the viewer's property does not
    hold is 404 (``NotFoundError``), a malformed request 400. GET only; never cached."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        @never_cache
        @require_GET
        def guarded(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if getattr(user, "staff", None) is None:
                raise PermissionDenied("this login is not enrolled as staff")
            actor = actor_of(user)
            if not actor.has(*roles):
                raise PermissionDenied("this printable needs one of the roles: "
                                       + ", ".join(str(r) for r in roles))
            try:
                return view(request, actor, **kwargs)
            except NotFoundError as e:
                raise Http404(e.message) from None
            except DomainError as e:
                if e.status == 404:
                    raise Http404(e.message) from None
                raise BadRequest(e.message) from None

        return guarded

    return wrap


def signature(role: str, step: str, rule: str, done: dict[str, Any] | None = None
              ) -> dict[str, Any]:
    """One signature line: who signs (``role``), for what (``step``), the rule it comes
    from, and — once the step is recorded — the person, credential and time recorded."""
    done = done or {}
    return {"role": role, "step": step, "rule": rule, "name": done.get("by", ""),
            "credential": done.get("credential_number", ""), "at": done.get("at", "")}


def first_step(steps: list[dict[str, Any]], *types: str) -> dict[str, Any] | None:
    """The first recorded step of one of ``types`` (a step: step, by, role, credential,
    at), or None while it is not done."""
    return next((s for s in steps if s.get("step") in types), None)


# -- the jackpot box count ----------------------------------------------------------------


def _count_signatures(count: Any, section: str) -> list[dict[str, Any]]:
    steps = count.steps or []
    boxes = [s for s in steps if s.get("step") == "BoxCounted"]
    if count.place == "table":
        return [
            signature("Dealer", "counted the boxes at a closed table",
                      f"§ {section}(d)(1)", boxes[0] if boxes else None),
            signature("Floorperson or above", "witnessed the count and signs its "
                      "documentation", f"§ {section}(d)(1)", first_step(steps, "CountWitnessed")),
            signature("Security", "carried the locked container to the cage",
                      f"§ {section}(d)(1)", first_step(steps, "CountCarriedToCage")),
            signature("Cashier", "verified the aggregate count at the cage",
                      f"§ {section}(e)", first_step(steps, "CountVerified")),
        ]
    return [
        signature("Floorperson or above", "accounted for every locked box sent to the cage",
                  f"§ {section}(d)(2)", first_step(steps, "BoxesAccountedFor")),
        signature("Security", "carried the boxes to the cage", f"§ {section}(d)(2)",
                  first_step(steps, "CountCarriedToCage")),
        signature("Cashier", "counted each box at the cage", f"§ {section}(e)",
                  first_step(steps, "CountVerified")),
    ]


@printable(COUNT_READERS)
def count_sheet(request: HttpRequest, actor: Actor, fund: str, count_id: str) -> HttpResponse:
    row = selectors.fund(actor, fund)
    found = next((c for c in selectors.counts(actor, fund) if str(c.count_id) == count_id),
                 None)
    if found is None:
        raise NotFoundError(f"no count {count_id} of the {fund} fund", code="count_not_found")
    section = "637a.15" if row.kind == BAD_BEAT else "637a.16"
    counted = {str(s.get("table_id")): s.get("counted_cents")
               for s in found.steps or [] if s.get("step") == "BoxCounted"}
    boxes = [{**b, "counted_cents": counted.get(str(b.get("table_id")))}
             for b in found.named_boxes]
    return render(request, "jackpots/console/print_count.html", {
        "fund": row, "count": found, "boxes": boxes, "section": section,
        "signatures": _count_signatures(found, section)})


# -- the High Hand Tracking Slip -------------------------------------------------------------


@printable(FUND_READERS)
def high_hand_slip(request: HttpRequest, actor: Actor, fund: str, period: str) -> HttpResponse:
    row = selectors.fund(actor, fund)
    lines = selectors.slips(actor, fund, period)
    if not lines:
        raise NotFoundError(f"no High Hand Tracking Slip for {period}", code="slip_not_found")
    return render(request, "jackpots/console/print_high_hand.html", {
        "fund": row, "lines": lines, "period_start": lines[0].period_start,
        "period_end": lines[0].period_end})


# -- the Bad Beat payout record ------------------------------------------------------------


@printable(FUND_READERS)
def bad_beat_record(request: HttpRequest, actor: Actor, fund: str, hand_id: str
                    ) -> HttpResponse:
    row = selectors.fund(actor, fund)
    hit = next((h for h in selectors.hits(actor, fund) if str(h.hand_id) == hand_id), None)
    if hit is None:
        raise NotFoundError(f"no Bad Beat hand {hand_id} in the {fund} fund",
                            code="hit_not_found")
    table = selectors.table_names(actor, [hit.table_id]).get(str(hit.table_id), "")
    verified = {"by": hit.verified_by, "at": hit.decided_at.isoformat()} \
        if hit.verified_by and hit.state in ("verified", "paid") else None
    paid = {"by": hit.paid_by, "at": hit.paid_at.isoformat()} if hit.paid_at else None
    signatures = [
        signature("Poker shift supervisor", "verified the Bad Beat hand before the award",
                  "§ 637a.15(f)", verified),
        signature("Security or finance", "delivered the payout to the table"
                  if hit.paid_where != "cage" else "prepared the payout for the cage",
                  "§ 637a.15(f)(2), (g)", None),
        signature("Paid by", f"paid the payout at the {hit.paid_where or 'table or cage'}",
                  "§ 637a.15(g)", paid),
    ]
    return render(request, "jackpots/console/print_bad_beat.html", {
        "fund": row, "hit": hit, "table": table, "signatures": signatures,
        "payees": hit.payees or [], "shares": hit.shares or []})


page("print/jackpots/<str:fund>/counts/<str:count_id>/", count_sheet,
     name="print-jackpot-count")
page("print/jackpots/<str:fund>/high-hands/<str:period>/", high_hand_slip,
     name="print-high-hand-slip")
page("print/jackpots/<str:fund>/bad-beats/<str:hand_id>/", bad_beat_record,
     name="print-bad-beat")


# -- the funds' records page, which links every printable above ---------------------------

def _records_page() -> None:
    from console.registry import NavItem, nav
    from jackpots.console_funds import PAGE_ROLES, jackpots_page

    page("jackpots/", jackpots_page, name="jackpots")
    nav(NavItem(group="Money", label="Jackpot records", url="/console/jackpots/",
                roles=PAGE_ROLES, order=55))


_records_page()
