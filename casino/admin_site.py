"""The admin site's own pages, read-only like its models (issue 35).

``admin_urls()`` is ``admin.site.urls`` with two changes: ``password_change/`` (and its
``done/``) is refused in words — a password changes through the staff services, which
record it (``POST /api/v1/me/password/``, or a reset from the console's staff pages) —
instead of Django's form (which answered 500 here: the staff guard refuses a password
saved outside the services); and ``r/<type>/<id>/`` (view on site) is gone: no model has
a page elsewhere, and its answer told another property's row from a missing one.

``read_only_admins`` is a system check: every model the site lists, whoever registered
it, is under :class:`casino.admin.ReadOnlyAdmin`, so a library added later that
registers an admin of its own fails ``manage.py check`` until it is looked at.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core import checks
from django.template.response import TemplateResponse
from django.urls import path

#: Django's admin URLs this site does not serve as Django does
REPLACED = ("password_change", "password_change_done", "view_on_site")


def password_change_refused(request: Any) -> TemplateResponse:
    """The admin's "Change password": refused, saying where passwords change (403)."""
    return TemplateResponse(request, "casino/admin/password_change_refused.html",
                            admin.site.each_context(request), status=403)


def admin_urls() -> tuple[list, str, str]:
    """``admin.site.urls`` with :data:`REPLACED` refused or left out."""
    refused = admin.site.admin_view(password_change_refused)
    patterns = [path("password_change/", refused, name="password_change"),
                path("password_change/done/", refused, name="password_change_done")]
    patterns += [p for p in admin.site.get_urls() if getattr(p, "name", None) not in REPLACED]
    return patterns, "admin", admin.site.name


@checks.register(checks.Tags.admin)
def read_only_admins(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    from casino.admin import ReadOnlyAdmin

    return [checks.Error(f"{model._meta.label} is in the admin under "
                         f"{type(model_admin).__name__}, not casino.admin.ReadOnlyAdmin",
                         hint="register it read-only and scoped, or unregister it "
                              "(casino/admin_credentials.py does both)",
                         obj=type(model_admin), id="casino.E035")
            for model, model_admin in admin.site._registry.items()
            if not isinstance(model_admin, ReadOnlyAdmin)]
