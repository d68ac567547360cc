"""/console/: the shell's own pages, then every page the apps registered
(:mod:`console.registry`). Reversed as ``console:<name>``."""

from __future__ import annotations

from console.registry import REGISTRY

app_name = "console"

urlpatterns: list = [
    *REGISTRY.pages,
]
