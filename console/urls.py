"""/console/: the shell's own pages, then every page the apps registered
(:mod:`console.registry`). Reversed as ``console:<name>``."""

from __future__ import annotations

from django.urls import path

from console import command_view, enrolment_views, shell_views, two_factor_views
from console.registry import REGISTRY

app_name = "console"

urlpatterns: list = [
    path("", shell_views.home, name="home"),
    path("waiting/", shell_views.waiting_fragment, name="waiting"),
    path("login/", shell_views.login_page, name="login"),
    path("logout/", shell_views.logout_page, name="logout"),
    path("two-factor/enrol/", two_factor_views.enrol, name="two-factor-enrol"),
    path("two-factor/verify/", two_factor_views.verify, name="two-factor-verify"),
    path("two-factor/codes/", two_factor_views.recovery_codes, name="two-factor-codes"),
    path("enrol/", enrolment_views.enrol, name="enrol"),
    *command_view.PATHS,
    *REGISTRY.pages,
]
