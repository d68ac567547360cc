"""Core services: the only writers of staff, roles, credentials, logins and the property.

Every change is an event as well as a row, so the audit trail says who changed what,
under which role, and who approved it.
"""

from casino.services.logins import (
    reset_own_failures,
    staff_tokens_revoke,
    token_issue,
    token_logout,
)
from casino.services.staff import (
    STAFF_STREAM,
    property_register,
    staff_bootstrap,
    staff_enrol,
)

__all__ = ["STAFF_STREAM", "property_register", "staff_bootstrap",
           "staff_enrol", "reset_own_failures", "staff_tokens_revoke",
           "token_issue", "token_logout"]
