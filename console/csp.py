"""The page policy's few loosenings, in one table (DESIGN §7, after pretix's
``SecurityMiddleware``): every response gets ``settings.CONTENT_SECURITY_POLICY`` (no inline
script or style, nothing from elsewhere); a view named here gets what it still needs, and
nothing else does.

The boards, the jackpot and finance reports and the table sign need nothing more: their
styles are in ``casino.css`` and their scripts in ``console.js`` (no template has an inline
script or style: tests/console/test_one_stylesheet.py). The Swagger UI and the admin are
third-party pages that keep theirs.

Keys are a view's URL name (``request.resolver_match.view_name``: ``"room-board"``,
``"admin:index"``), a namespace followed by ``:*`` (``"admin:*"``), or the view's dotted
path (for a URL without a name).
"""

from __future__ import annotations

from typing import Any

from csp.constants import SELF, UNSAFE_INLINE
from csp.middleware import CSPMiddleware, PolicyParts

_INLINE_STYLE = {"style-src": [SELF, UNSAFE_INLINE]}
_INLINE_BOTH = {"script-src": [SELF, UNSAFE_INLINE], "style-src": [SELF, UNSAFE_INLINE]}

#: view -> the directives it replaces
LOOSENED: dict[str, dict[str, list[str]]] = {
    # third-party pages that keep their own
    "swagger-ui": {**_INLINE_BOTH, "img-src": [SELF, "data:", "https://validator.swagger.io"]},
    "admin:*": _INLINE_STYLE,
}


def loosening_for(match: Any) -> dict[str, list[str]] | None:
    """What the resolved view ``match`` may have beyond the policy (None: nothing)."""
    if match is None:
        return None
    for key in (match.view_name, f"{match.namespace}:*" if match.namespace else None,
                match._func_path):
        if key and key in LOOSENED:
            return LOOSENED[key]
    return None


class ConsoleCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, with :data:`LOOSENED` merged in for the views it names (a
    view's own ``csp_replace``/``csp_update`` decorator still wins)."""

    def get_policy_parts(self, request: Any, response: Any,
                         report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if not report_only and parts.replace is None and parts.update is None:
            extra = loosening_for(getattr(request, "resolver_match", None))
            if extra:
                parts.replace = extra
        return parts
