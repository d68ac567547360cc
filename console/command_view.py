"""The one command view (issue 23 item 3; DESIGN §7 "One command view", after pretix's
``OrderApprove``): ``/console/do/<name>/[<pk>/]`` shows the form of the declared command
``name`` (:mod:`casino.declared`) and, posted, calls its service exactly as the API does
(:meth:`casino.declared.DeclaredCommand.call`, the one function both use).

* GET: the form — heading the declaration's summary, its doc, one field per input field
  (:mod:`console.forms`), prefilled from the query string; a fresh idempotency key, and
  the version of the declaration's stream when it names one.
* POST: the role (403 page, nothing appended); the same input serializer as the API; then,
  in ONE transaction, the :class:`console.models.FormSubmission` of the key and the
  service's call — a refusal rolls both back. A refusal (``DomainError``) is shown as the
  code's sentence (:func:`casino.refusals.refusal_sentence`) and its own message, on the
  field it names or in the messages region with "Nothing was recorded."; 404 (another
  property's row) is a 404 page; success redirects (303) to the form's local ``next``.
* A stream that moved on since the form was opened: nothing is called; the form comes
  back at the new version with what changed.
* The same key twice: the second finds the first's row (after waiting for it on the
  unique index) and goes where the first went: "This was already recorded." — only when
  that row is this very form's (command, row, login); a key met with another command,
  row or login is refused with a fresh form (:data:`REUSED`), nothing recorded.
* A row not found: the URL's row → a 404 page; a value typed into the form (the
  error's ``field`` names an input field, e.g. a High Hand award's slip, a count's
  table) → a refusal on that field, the form kept.
* The store's own optimistic-concurrency check refusing the append (the stream moved on
  between the form's check and the append: ``stream_version_conflict``) → the same as a
  stale form: what changed, at the new version.
"""

from __future__ import annotations

import logging
import re
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.urls.converters import get_converters
from rest_framework.exceptions import PermissionDenied as DRFPermissionDenied

from casino.actors import Actor, NoStaffProfile, actor_of
from casino.declared import DeclaredCommand, declared
from casino.domain.errors import DomainError, NotFoundError
from casino.eventstore.errors import ConcurrencyError
from casino.domain.wall_clock import format_wall_clock
from casino.refusals import refusal_sentence as catalogue_sentence
from console.forms import FormFields, fixed_by_task
from console.models import FormSubmission
from console.shell_views import local_path

log = logging.getLogger(__name__)

CHANGED = "This changed since you opened it."
ALREADY = "This was already recorded."
NOTHING = "Nothing was recorded."
REUSED = "This form was already used for something else; nothing was recorded."
UNEXPECTED = ("Something went wrong on our side and nothing was recorded. Try again; if it "
              "happens again, tell a supervisor.")


class _Already(Exception):
    pass


class _Stale(Exception):
    def __init__(self, version: int):
        self.version = version


def refusal_sentence(code: str, fallback: str) -> str:
    """The code's sentence from the one catalogue (casino.refusals: its general sentence
    for a code it does not know, which tests/casino/test_refusal_sentences.py keeps from
    happening); ``fallback``, the error's own message, only if a sentence were empty."""
    return catalogue_sentence(code) or fallback


def _declaration(name: str) -> DeclaredCommand:
    try:
        decl = declared(name)
    except KeyError:
        raise Http404("no such command") from None
    if not decl.console:
        raise Http404("no such command")
    return decl


def _pk(decl: DeclaredCommand, pk: str | None) -> Any:
    """The URL's id as the API's route gives it to the service (its converter: a UUID for
    ``<uuid:pk>``); a command with an id needs one and one without takes none (404)."""
    if (pk is None) != (decl.id_arg is None):
        raise Http404("this command's form needs the row it acts on" if pk is None
                      else "this command acts on no row")
    if pk is None:
        return None
    conv = "str"
    if decl.path and "<" in decl.path:
        spec = decl.path.split("<", 1)[1].split(">", 1)[0]
        conv = spec.split(":")[0] if ":" in spec else "str"
    converter = get_converters()[conv]
    if not re.fullmatch(converter.regex, pk):
        raise Http404("no such row")
    try:
        return converter.to_python(pk)
    except ValueError:
        raise Http404("no such row") from None


def stream_head(decl: DeclaredCommand, pk: Any, actor: Actor) -> int | None:
    """The newest version of the declaration's stream for ``pk`` (0: no events yet), or
    None when it names no stream. One query on the (stream_id, version) index; a stream
    whose newest event is another property's is a 404, as the row would be."""
    if decl.stream is None or pk is None:
        return None
    from casino.eventstore.models import Event

    stream_id = decl.stream(pk)
    newest = (Event.objects.filter(stream_id=stream_id).order_by("-version")
              .values_list("version", "metadata__property")[:1])
    if not newest:
        return 0
    version, prop = newest[0]
    if prop != actor.property.licence_number and not actor.group_wide:
        raise Http404("no such row")
    return version


def changes_since(decl: DeclaredCommand, pk: Any, actor: Actor, version: int) -> list[str]:
    """The stream's events after ``version``, in words: "<what> by <who> at <when>"; their
    data as the event log's readers may see it (a face-down card stays hidden:
    :func:`casino.eventstore.selectors.shown_events`)."""
    from casino.eventstore.models import Event
    from casino.eventstore.selectors import shown_events
    from casino.scoping import event_rows

    rows = event_rows(Event.objects.filter(stream_id=decl.stream(pk), version__gt=version),
                      actor).order_by("version")[:10]
    return [_in_words(e, actor) for e in shown_events(rows)]


def _in_words(event: Any, actor: Actor) -> str:
    """One event (as :func:`shown_events` gives it) as the history pages say it
    (console.history), with its time."""
    from console.history import sentence

    when = format_wall_clock(event.recorded_at, time_zone=actor.property.time_zone)
    return f"{sentence(event).rstrip('.')}, at {when}."


def _forbidden(request: HttpRequest, decl: DeclaredCommand | None, detail: str) -> HttpResponse:
    return render(request, "console/command_forbidden.html",
                  {"decl": decl, "detail": detail}, status=403)


def command_view(request: HttpRequest, name: str, pk: str | None = None) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method not in ("GET", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    decl = _declaration(name)
    try:
        actor = actor_of(request.user)
    except NoStaffProfile:
        return _forbidden(request, decl, "This login is not enrolled as staff of a property.")
    if not actor.has(*decl.roles):
        roles = ", ".join(str(r).replace("_", " ") for r in decl.roles)
        return _forbidden(request, decl, f"Your roles do not include {roles}, which this "
                                         "step needs.")
    key_pk = _pk(decl, pk)
    zone = actor.property.time_zone
    if request.method == "GET":
        fixed = fixed_by_task(request.GET)
        form = FormFields(decl.input, zone=zone, source=request.GET, fixed=fixed,
                          api_units=True, actor=actor, pk=key_pk)
        return _page(request, decl, form, key=uuid.uuid4(),
                     version=stream_head(decl, key_pk, actor), fixed=fixed,
                     next_url=local_path(request, request.GET.get("next")),
                     signs=_signs(decl, actor, key_pk))
    return _post(request, decl, actor, key_pk)


def _post(request: HttpRequest, decl: DeclaredCommand, actor: Actor, pk: Any) -> HttpResponse:
    post = request.POST
    fixed = {k for k in post.get("_fixed", "").split(",") if k}
    next_url = local_path(request, post.get("_next"))
    try:
        key = uuid.UUID(post.get("_key", ""))
    except ValueError:
        key = None
    version = post.get("_version")
    version = int(version) if version and version.isdigit() else None
    form = FormFields(decl.input, zone=actor.property.time_zone, source=post, fixed=fixed,
                      add_row=post.get("_add", ""), actor=actor, pk=pk)

    def again(status: int, **extra: Any) -> HttpResponse:
        return _page(request, decl, form, key=extra.pop("key", None) or key or uuid.uuid4(),
                     fixed=fixed, version=extra.pop("version", version), next_url=next_url,
                     status=status, signs=_signs(decl, actor, pk), **extra)

    this_form = {"command": decl.name, "row": "" if pk is None else str(pk),
                 "username": actor.username}

    def seen(done: FormSubmission) -> HttpResponse:
        """A key already recorded: this form sent again, or a key of another form."""
        if done.is_for(**this_form):
            return _already(request, done)
        return again(409, key=uuid.uuid4(), general=[REUSED])

    if key is None:
        return again(400, general=[f"The form was incomplete. {NOTHING} Send it again."])
    done = FormSubmission.objects.filter(key=key).first()
    if done is not None:
        return seen(done)
    if post.get("_add"):  # "Add a row": the form again, one row longer; nothing called
        return again(200)
    body, readable = form.body()
    if not readable:
        return again(400, general=[f"Some boxes could not be read. {NOTHING}"])
    body_in = decl.input(data=body)
    if not body_in.is_valid():
        loose = form.attach(body_in.errors)
        return again(400, general=[*loose, f"{NOTHING} See the marked fields."
                                   if form.has_errors else NOTHING])
    try:
        with transaction.atomic():
            try:
                with transaction.atomic():
                    FormSubmission.objects.create(key=key, redirect_url=next_url,
                                                  **this_form)
            except IntegrityError:
                raise _Already from None
            head = stream_head(decl, pk, actor)
            if head is not None and head != (version or 0):  # no version sent: as opened
                raise _Stale(head)                           # before the first event
            result = decl.call(actor, pk, dict(body_in.validated_data))
    except _Already:
        return seen(FormSubmission.objects.get(key=key))
    except _Stale as stale:
        return _stale(decl, pk, actor, version or 0, stale.version, again)
    except Http404:
        raise
    except ConcurrencyError:
        # the store refused the append: the stream moved on after the form's own check
        return _stale(decl, pk, actor, version or 0, None, again)
    except DomainError as err:
        if isinstance(err, NotFoundError) and _typed(form, err, decl):
            return _refused(request, decl, form, err, again)  # a value typed in: the field
        if err.status == 404:  # the URL's row (or a row no field names): a 404 page
            raise Http404(err.message) from None
        if err.status == 403:
            return _forbidden(request, decl, refusal_sentence(err.code, err.message))
        return _refused(request, decl, form, err, again)
    except DRFPermissionDenied as err:  # a service's own role check (casino.roles)
        return _forbidden(request, decl, str(err.detail))
    except Exception:
        log.exception("console command %s failed (key %s)", decl.name, key)
        return again(500, general=[UNEXPECTED])
    if decl.shows_once:
        return _shown_once(request, decl, result, next_url)
    messages.success(request, f"Recorded: {_done_words(decl)}.")
    return HttpResponseRedirect(next_url, status=303)


def _signs(decl: DeclaredCommand, actor: Actor, pk: Any) -> list[tuple[str, str]]:
    """What the step signs, in words (the declaration's ``signs``); the row missing or
    another property's is a 404 page."""
    if decl.signs is None or pk is None:
        return []
    try:
        return decl.signs(actor, pk)
    except NotFoundError:
        raise Http404("no such row") from None


def _shown_once(request: HttpRequest, decl: DeclaredCommand, result: Any,
                next_url: str) -> HttpResponse:
    """The answer page of a step whose answer is shown once (a half of an enrolment
    code): rendered in the POST's own answer, never behind a link or a redirect, and
    kept by no cache. Sending the form again finds it recorded and shows nothing."""
    response = render(request, f"console/{decl.shows_once}.html",
                      {"decl": decl, "result": result, "next_url": next_url,
                       "title": _done_words(decl)})
    response["Cache-Control"] = "no-store"
    return response


def _stale(decl: DeclaredCommand, pk: Any, actor: Actor, opened: int, head: int | None,
           again: Any) -> HttpResponse:
    """The form again at the stream's newest version, with what changed since ``opened``
    (``head``: the newest version when known)."""
    if head is None:
        head = stream_head(decl, pk, actor)
    changes = changes_since(decl, pk, actor, opened) if head is not None else []
    return again(409, version=head, changed=changes,
                 general=[f"{CHANGED} {NOTHING} Check the form and send it again."])


def _typed(form: FormFields, err: DomainError, decl: DeclaredCommand) -> bool:
    """Whether ``err`` is about a value typed into the form: it names a field of the form
    that is not the URL's id."""
    return bool(err.field) and err.field != decl.id_arg and form.field_named(
        err.field) is not None


def _refused(request: HttpRequest, decl: DeclaredCommand, form: FormFields, err: DomainError,
             again: Any) -> HttpResponse:
    sentence = refusal_sentence(err.code, err.message)
    detail = err.message if err.message and err.message != sentence else ""
    words = f"{sentence} ({detail})" if detail else sentence
    target = form.field_named(err.field) if err.field else None
    if target is not None:
        target.errors.append(words)
        target.extra["code"] = err.code
        # a value typed in that names no row is the form's problem, not a missing page
        status = 400 if err.status == 404 else err.status
        return again(status, code=err.code,
                     general=[f"{NOTHING} See the marked field."])
    return again(err.status, code=err.code, general=[words, NOTHING])


def _already(request: HttpRequest, done: FormSubmission) -> HttpResponse:
    messages.info(request, ALREADY)
    return HttpResponseRedirect(done.redirect_url, status=303)


def _done_words(decl: DeclaredCommand) -> str:
    words = decl.label or decl.summary or decl.name.replace("_", " ")
    return words.rstrip(".")


def _page(request: HttpRequest, decl: DeclaredCommand, form: FormFields, *, key: uuid.UUID,
          version: int | None, next_url: str, fixed: set[str], status: int = 200,
          general: list[str] | None = None, changed: list[str] | None = None,
          code: str = "", signs: list[tuple[str, str]] | None = None) -> HttpResponse:
    return render(request, "console/command.html", {
        "decl": decl, "form": form, "key": key, "version": version, "next_url": next_url,
        "fixed": ",".join(sorted(fixed)), "general": general or [], "changed": changed or [],
        "code": code, "button": decl.label or "Record", "signs": signs or [],
        "title": (decl.summary or decl.name).rstrip("."),
    }, status=status)


#: the one-line entry of console/urls.py: ``/console/do/<name>/[<pk>/]``
PATHS = [path("do/<str:name>/", command_view, name="command"),
         path("do/<str:name>/<str:pk>/", command_view, name="command-pk")]
