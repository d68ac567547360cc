"""The API reference's tags: one per app and area, in the order of a shift's work (who may
log in, the tables and their cards, the poker room, its jackpots, finance's day), each
with the line the Swagger UI shows under it. An operation's tag follows from its URL
(:data:`AREAS`), so a new view needs no annotation; a URL no area claims gets no tag,
and tests/casino/test_api_reference.py fails on it.

Pure data: casino/settings.py reads :data:`TAGS` (SPECTACULAR_SETTINGS["TAGS"]).
"""

from __future__ import annotations

import re

LOGINS = "Logins and tokens"
STAFF = "Staff and roles"
TABLES = "Tables"
RULES = "Tables · Rules Submissions"
DECKS = "Tables · Decks"
BANKED = "Tables · House-banked rounds"
SEATS = "Poker room · Seats"
HANDS = "Poker room · Hands"
RAKE = "Poker room · Rake and time charges"
FLOOR = "Poker floor"
FUNDS = "Jackpots · Funds"
BAD_BEAT = "Jackpots · Bad Beat"
HIGH_HAND = "Jackpots · High Hand"
COUNTS = "Jackpots · Box counts"
CHIPS = "Finance · Chips and slips"
DROP = "Finance · Drop"
DAYS = "Finance · Gaming days"
REPORTS = "Finance · Reports"
EVENTS = "Event log"
HEALTH = "Health"

#: Every tag, in the order the Swagger UI lists them, with its one line.
TAGS: list[dict[str, str]] = [
    {"name": LOGINS, "description": "Get and revoke API tokens, lift a lock-out, see who "
                                    "you are and change your own password."},
    {"name": STAFF, "description": "Enrol staff, record Board credential numbers, and grant "
                                   "or revoke roles with a second person's approval."},
    {"name": TABLES, "description": "Configure, open and close gaming tables, assign the "
                                    "dealer, and read results and the table sign."},
    {"name": RULES, "description": "Draft, submit, approve and withdraw the Rules Submission "
                                   "each game is played under."},
    {"name": DECKS, "description": "Every deck from receipt to destruction: inspection, "
                                   "counts, shuffles, cuts and removal, each signed."},
    {"name": BANKED, "description": "Rounds of the house-banked games (Lunar Poker, Five "
                                    "Card Hi-Lo): wagers, the deal, decisions, settlement."},
    {"name": SEATS, "description": "Seat players and record buy-ins, added chips, sitting "
                                   "out, stepping away and leaving."},
    {"name": HANDS, "description": "Start and deal poker hands, record each dealer action "
                                   "and floor ruling, and read a hand's history."},
    {"name": RAKE, "description": "A poker table's rake ledger and the time charges a "
                                  "floorperson verifies."},
    {"name": FLOOR, "description": "Waitlists and interest lists, calling and seating from "
                                   "them, must-move games, table changes, tables opened and "
                                   "broken by lot, and the fairness record."},
    {"name": FUNDS, "description": "Jackpot funds: the box on each table that collects "
                                   "them, their ledgers and reports, the displayed "
                                   "amount's adjustment, and discontinuing a fund."},
    {"name": BAD_BEAT, "description": "Bad Beat hands held for verification, verified, "
                                      "rejected and paid."},
    {"name": HIGH_HAND, "description": "High Hand Tracking Slips, the close of each period "
                                       "and the award paid at the cage."},
    {"name": COUNTS, "description": "Counts of the jackpot payout boxes, with their chain of "
                                    "custody and any variance explained."},
    {"name": CHIPS, "description": "The chip tray's opener and closer, chip sales at the "
                                   "table, and fill and credit slips."},
    {"name": DROP, "description": "The drop box removed, counted, signed by a second counter "
                                  "and accepted by the cage."},
    {"name": DAYS, "description": "A gaming day's reconciliation, a table's day and what is "
                                  "behind it, exceptions, and the close."},
    {"name": REPORTS, "description": "The master-game, statistical, poker-revenue, "
                                     "jackpot-fund and exception reports."},
    {"name": EVENTS, "description": "The event log every figure is computed from, its "
                                    "hash chain and signed digests."},
    {"name": HEALTH, "description": "Whether the database and the broker answer; the "
                                    "process's liveness and its readiness for commands."},
]

#: URL → tag, the first pattern that matches (so a narrower area comes before its app).
AREAS: list[tuple[re.Pattern[str], str]] = [(re.compile(pattern), tag) for pattern, tag in [
    (r"^/health(/|/live|/ready)?$", HEALTH),
    (r"^/api/v1/(auth|logins|me)/", LOGINS),
    (r"^/api/v1/staff/[^/]+/tokens/", LOGINS),
    (r"^/api/v1/(staff|role-grants|credential-resets)/", STAFF),
    (r"^/api/v1/(events|streams)/", EVENTS),
    (r"^/api/v1/(tables|decks)/[^/]+/events/$", EVENTS),
    (r"^/api/v1/rules-submissions/", RULES),
    (r"^/api/v1/decks/", DECKS),
    (r"^/api/v1/rounds/", BANKED),
    (r"^/api/v1/tables/", TABLES),
    (r"^/api/v1/poker-tables/[^/]+/jackpot-boxes/", FUNDS),
    (r"^/api/v1/poker-tables/[^/]+/(seats|minimum-bet)/", SEATS),
    (r"^/api/v1/poker-tables/[^/]+/(rake-ledger|time-charges)/", RAKE),
    (r"^/api/v1/(hands/|poker-settle-script/|poker-tables/[^/]+/(hands|phh)/)", HANDS),
    (r"^/api/v1/(waitlists|calls)/", FLOOR),
    (r"^/api/v1/jackpot-funds/[^/]+/bad-beats/", BAD_BEAT),
    (r"^/api/v1/jackpot-funds/[^/]+/high-hands/", HIGH_HAND),
    (r"^/api/v1/jackpot-funds/[^/]+/counts/", COUNTS),
    (r"^/api/v1/jackpot-funds/", FUNDS),
    (r"^/api/v1/finance/reports/", REPORTS),
    (r"^/api/v1/finance/tables/[^/]+/drop/", DROP),
    (r"^/api/v1/finance/tables/[^/]+/(inventory|chip-sales|slips)/", CHIPS),
    (r"^/api/v1/finance/(gaming-days|exceptions|tables/[^/]+/days)/", DAYS),
]]


def tag_for(path: str) -> str | None:
    """The tag of the area ``path`` (as the schema writes it, ``{id}`` and all) is in."""
    return next((tag for pattern, tag in AREAS if pattern.search(path)), None)
