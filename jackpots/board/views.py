"""The jackpot board page and its data: for the room's TVs, opened with a screen's display
key (``JACKPOT_BOARD_DISPLAY_KEYS``, which shows this board and nothing else), or by staff
logged in with a room role."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from casino.roles import Role
from casino.screens import Refused, board_views
from jackpots.board.selectors import jackpot_board

BOARD_ROLES = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
               Role.FINANCE, Role.SECURITY, Role.CASHIER)

board_page, board_data = board_views(
    keys_setting="JACKPOT_BOARD_DISPLAY_KEYS", roles=BOARD_ROLES, what="jackpot board",
    login_next="/jackpots/board/", template="jackpots/board.html",
    refused_template="jackpots/board_refused.html", data=jackpot_board)


@never_cache
def report_page(request: HttpRequest, name: str) -> HttpResponse:
    """The fund ledger report as a page to print (637a.15(e), 637a.16(e)): staff with a
    role that reads the funds, logged in."""
    from casino.actors import actor_of
    from casino.domain.errors import DomainError
    from casino.roles import has_role
    from jackpots import reports
    from jackpots.api.views import FUND_READERS

    user = request.user
    if not user.is_authenticated or getattr(user, "staff", None) is None \
            or not has_role(user, *FUND_READERS):
        r = Refused(403, "role_required", "the fund report needs a login with one of the "
                    "roles: " + ", ".join(str(x) for x in FUND_READERS))
        return render(request, "jackpots/board_refused.html", {"refused": r}, status=403)
    actor = actor_of(user)
    try:
        first, last = reports.gaming_day_span(request.GET, actor.gaming_day())
        by_period = request.GET.get("by") == "period"
        report = (reports.period_report if by_period else reports.fund_report)(
            actor, name, first, last)
    except DomainError:
        r = Refused(400, "invalid_report", "first and last are dates (YYYY-MM-DD), last on "
                    f"or after first, at most {reports.MAX_DAYS} days on, of a fund that "
                    "exists")
        return render(request, "jackpots/board_refused.html", {"refused": r}, status=400)
    return render(request, "jackpots/report_periods.html" if by_period
                  else "jackpots/report.html", {"report": report})
