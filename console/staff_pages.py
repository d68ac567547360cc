"""The staff list, roles and pending grants, and one person's page with their history in
sentences (issue 23 item 4; administrators and compliance officers, who manage staff:
``casino.services.staff.STAFF_MANAGERS``). Read-only: every action is a link to the
declared command's form (``command_url``), which calls the same service the API calls."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from casino.domain.errors import NotFoundError
from casino.eventstore.models import Event
from casino.eventstore.selectors import shown_events
from casino.models import RoleGrant, StaffProfile
from casino.roles import Role
from casino.scoping import event_rows, property_row, property_rows, whole_number
from casino.services.credentials import open_resets
from casino.services.staff import STAFF_MANAGERS
from console.history import sentence
from console.middleware import refusal
from console.registry import NavItem, nav, offer, page

#: a person's page lists at most this many of their newest events
HISTORY_SHOWN = 100


def _refused(request: HttpRequest) -> HttpResponse | None:
    if not request.console.has(*STAFF_MANAGERS):
        return refusal(request, "The staff pages need the administrator or compliance role.")
    return None


def _with_second_factor(rows):  # noqa: ANN001, ANN202
    from django.db.models import Exists, OuterRef
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return rows.annotate(second_factor=Exists(TOTPDevice.objects.filter(
        user_id=OuterRef("user_id"), confirmed=True)))


def _roles(profile: StaffProfile) -> list[str]:
    valid = {r.value for r in Role}
    return sorted(g.name.replace("_", " ") for g in profile.user.groups.all() if g.name in valid)


def _row(profile: StaffProfile, viewer_roles: frozenset[str]) -> dict:
    """A person with the steps the viewer's roles may take about them (:func:`offer`:
    the declarations' roles, so an action is never offered to answer 403)."""
    pk = profile.user_id
    steps = [("Ask for a role", "role_grant_request"), ("Revoke a role", "role_revoke"),
             *([("Deactivate", "staff_deactivate")] if profile.user.is_active else []),
             ("Change the credential number", "staff_credential_number_change"),
             ("Reset the sign-in", "credential_reset_request"),
             ("Revoke API tokens", "staff_tokens_revoke")]
    return {
        "profile": profile, "roles": _roles(profile),
        "url": f"/console/staff/{pk}/",
        "actions": [a for label, name in steps if (a := offer(viewer_roles, label, name, pk))],
    }


def staff_list(request: HttpRequest) -> HttpResponse:
    refused = _refused(request)
    if refused:
        return refused
    actor = request.console.actor
    people = _with_second_factor(property_rows(StaffProfile.objects.all(), actor)
                                 .select_related("user").prefetch_related("user__groups")
                                 .order_by("user__username"))
    grants = (property_rows(RoleGrant.objects.filter(state=RoleGrant.State.PENDING), actor)
              .select_related("staff__user").order_by("requested_at"))
    return render(request, "console/compliance/staff_list.html", {
        "people": [_row(p, request.console.roles) for p in people],
        "grants": [{"grant": g, "role": g.role.replace("_", " "),
                    "approve": offer(actor, "Approve", "role_grant_approve", g.pk),
                    "reject": offer(actor, "Turn down", "role_grant_reject", g.pk),
                    "mine": g.requested_by == actor.username or g.staff.user_id == actor.user_id}
                   for g in grants],
        "resets": [{"reset": r, "who": r.staff.display_name or r.staff.user.username,
                    "approve": offer(actor, "Approve", "credential_reset_approve", r.pk),
                    "reject": offer(actor, "Turn down", "credential_reset_reject", r.pk),
                    "mine": r.requested_by == actor.username
                    or r.staff.user_id == actor.user_id}
                   for r in open_resets(actor)],
        "enrol": offer(actor, "Enrol a member of staff", "staff_enrol"),
    })


def staff_person(request: HttpRequest, pk: str) -> HttpResponse:
    refused = _refused(request)
    if refused:
        return refused
    actor = request.console.actor
    try:
        profile = property_row(_with_second_factor(StaffProfile.objects.select_related("user")
                                                   .prefetch_related("user__groups")),
                               actor, pk, what="staff", field="user_id", parse=whole_number)
    except NotFoundError:
        raise Http404("no such member of staff") from None
    username = profile.user.username
    # what they did, and what was done about them (their staff stream): newest first
    mine = event_rows(Event.objects.filter(metadata__actor=username), actor)
    about = event_rows(Event.objects.filter(stream_type="staff", data__username=username),
                       actor)
    # as the event log shows them: a dealer's face-down cards of a live round and a poker
    # hand's hole cards stay hidden until the round or hand is over (DESIGN §2)
    events = shown_events((mine | about).order_by("-position")[:HISTORY_SHOWN])
    grants = [{"grant": g, "role": g.role.replace("_", " ")}
              for g in RoleGrant.objects.filter(staff=profile).order_by("-requested_at")]
    return render(request, "console/compliance/staff_person.html", {
        "row": _row(profile, request.console.roles), "profile": profile,
        "grants": grants, "shown": HISTORY_SHOWN,
        "history": [{"event": e, "sentence": sentence(e)} for e in events],
    })


page("staff/", staff_list, name="staff")
page("staff/<str:pk>/", staff_person, name="staff-person")
nav(NavItem(group="Staff", label="Staff and roles", url="/console/staff/",
            roles=STAFF_MANAGERS, order=40))
