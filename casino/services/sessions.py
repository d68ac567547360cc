"""Ending every console and admin session of a login (issue 35: the subject's sessions end
at a reset of their sign-in). Sessions are kept in the database (Django's default engine);
each is read to find whose it is — a reset is rare, the table small."""

from __future__ import annotations

from typing import Any

from django.utils import timezone


def end_sessions(user: Any) -> int:
    """Delete every unexpired session signed in as ``user``; how many."""
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.models import Session

    mine = [s.pk for s in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
            if str(s.get_decoded().get(SESSION_KEY)) == str(user.pk)]
    return Session.objects.filter(pk__in=mine).delete()[0] if mine else 0
