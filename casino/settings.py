"""Settings, all read from the environment (see README, "Configuration").

Embedded default: SQLite and a file-based Celery broker under ``var/`` — no servers.
Production: ``DATABASE_URL`` (PostgreSQL, psycopg 3) and ``CELERY_BROKER_URL`` (Redis).
"""

from datetime import timedelta
from pathlib import Path

from casino import env
from casino.api.reference.tags import TAGS as API_TAGS

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env.env_str("CASINO_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env.env_bool("DEBUG", False)
EMBEDDED = "DATABASE_URL" not in __import__("os").environ
SECRET_KEY = env.secret_key(debug=DEBUG, embedded=EMBEDDED, var_dir=VAR_DIR)
ALLOWED_HOSTS = env.env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.env_list("CSRF_TRUSTED_ORIGINS", ["http://localhost:8000",
                                                             "http://127.0.0.1:8000"])

# --- HTTPS (issue 35 item 4; docs/operations/production.md, "HTTPS") --------------------
# In production (a DATABASE_URL) the cookies go only over HTTPS and browsers are told to
# use nothing else for a year (HSTS, this host and its subdomains; preloading is the
# domain owner's choice: off); the TLS-ending proxy's X-Forwarded-Proto tells Django a
# request came over HTTPS. The embedded default (`make run`: plain http on 127.0.0.1)
# keeps them off, or its logins would never keep a cookie. Each can be set either way.
_HTTPS = not EMBEDDED
SESSION_COOKIE_SECURE = env.env_bool("SESSION_COOKIE_SECURE", _HTTPS)
CSRF_COOKIE_SECURE = env.env_bool("CSRF_COOKIE_SECURE", _HTTPS)
SECURE_HSTS_SECONDS = env.env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if _HTTPS else 0,
                                  minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", _HTTPS)
SECURE_HSTS_PRELOAD = env.env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_PROXY_SSL_HEADER = env.env_header(
    "SECURE_PROXY_SSL_HEADER", ("HTTP_X_FORWARDED_PROTO", "https") if _HTTPS else None)
# Off by default even in production: the proxy redirects http to https for browsers,
# while the application's own port is spoken to over plain http by the proxy, the
# health probes and the fault and benchmark clients (a redirect there breaks them).
SECURE_SSL_REDIRECT = env.env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^health(/|$)"]  # the probes, when the redirect is on
# Who reads the health reports' details (casino.health_access): addresses or networks,
# the loopback by default; anyone else gets the status alone.
from casino.health_access import LOOPBACK, parse_detail_addresses  # noqa: E402

HEALTH_DETAIL_ADDRESSES = env.env_list("HEALTH_DETAIL_ADDRESSES", LOOPBACK)
parse_detail_addresses(HEALTH_DETAIL_ADDRESSES)  # a bad entry stops start-up, named

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",  # API tokens that expire and can be revoked (issue 11)
    "axes",  # login lock-outs per account and per address (issue 11)
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI assets served locally: no CDN needed
    "django_fsm",
    "django_htmx",  # request.htmx: the console's partial updates (issue 23)
    "csp",  # Content-Security-Policy with no inline script (issue 23, DESIGN §7)
    "django_otp",  # the second factor of administrators and compliance officers
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",  # recovery codes
    "casino.apps.CasinoConfig",
    "tables.apps.TablesConfig",
    "poker_room.apps.PokerRoomConfig",
    "poker_floor.apps.PokerFloorConfig",
    "jackpots.apps.JackpotsConfig",
    "finance.apps.FinanceConfig",
    "faultlab.apps.FaultlabConfig",  # the fault harness's commands (issue 26)
    # last: its ready() imports every app's console.py (console.registry)
    "console.apps.ConsoleConfig",
]

MIDDLEWARE = [
    # First: an oversized body is a 413 before anything (a login check included) runs.
    "casino.api.middleware.RequestSizeLimitMiddleware",
    # A view's error meaning the database or broker is away: 503 with Retry-After
    # (casino.outage; the API's views answer it through casino.api.problems).
    "casino.outage.OutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): the second factor of this session (django-otp)
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # The one policy (CONTENT_SECURITY_POLICY) and its few per-view loosenings, kept in
    # one table (console.csp.LOOSENED).
    "console.csp.ConsoleCSPMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Pages (not the API) in the viewer's property's zone: after the login is known.
    "casino.display_zone.DisplayZoneMiddleware",
    # /console/: the person resolved once (request.console), a login and a staff profile
    # required, and the second factor for the roles that need it. Deny by default.
    "console.middleware.ConsoleMiddleware",
    # Last: turns a locked-out login into casino.api.login_views.lockout_response.
    "axes.middleware.AxesMiddleware",
]

# --- logins: lock-outs and expiring tokens -------------------------------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out account
    "django.contrib.auth.backends.ModelBackend",
]
# Issue 26 item 7: the limits cannot be turned against the floor (casino.login_throttle).
# axes locks the pair (account, address) at LOGIN_FAILURE_LIMIT: a brute force on one
# account from one terminal locks that account from that terminal only. Across addresses
# an account is never locked (issue 35 item 4: twenty forwarded addresses locked an
# officer out from everywhere): past LOGIN_ACCOUNT_FAILURE_LIMIT failures across
# addresses, not counting addresses past their spraying limit, every answer for that
# account, the right password's included, waits LOGIN_ACCOUNT_DELAY_MS more per failure,
# at most LOGIN_ACCOUNT_MAX_DELAY_MS (casino.login_throttle). Before issue 26, "username"
# alone (or "ip_address") locked at 5 from anywhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "casino.login_throttle.LoginLimitsHandler"
AXES_FAILURE_LIMIT = env.env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1, maximum=100)
AXES_COOLOFF_TIME = timedelta(
    minutes=env.env_int("LOGIN_LOCKOUT_MINUTES", 30, minimum=1, maximum=7 * 24 * 60))
LOGIN_ACCOUNT_FAILURE_LIMIT = env.env_int("LOGIN_ACCOUNT_FAILURE_LIMIT", 10, minimum=1,
                                          maximum=1000)
if LOGIN_ACCOUNT_FAILURE_LIMIT < AXES_FAILURE_LIMIT:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        f"LOGIN_ACCOUNT_FAILURE_LIMIT={LOGIN_ACCOUNT_FAILURE_LIMIT} is below "
        f"LOGIN_FAILURE_LIMIT={AXES_FAILURE_LIMIT}: the account's slowing would come "
        "before the lock of one account at one address")
LOGIN_ACCOUNT_DELAY_MS = env.env_int("LOGIN_ACCOUNT_DELAY_MS", 250, minimum=0,
                                     maximum=60_000)
LOGIN_ACCOUNT_MAX_DELAY_MS = env.env_int("LOGIN_ACCOUNT_MAX_DELAY_MS", 5000, minimum=0,
                                         maximum=60_000)
if LOGIN_ACCOUNT_MAX_DELAY_MS < LOGIN_ACCOUNT_DELAY_MS:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        f"LOGIN_ACCOUNT_MAX_DELAY_MS={LOGIN_ACCOUNT_MAX_DELAY_MS} is below "
        f"LOGIN_ACCOUNT_DELAY_MS={LOGIN_ACCOUNT_DELAY_MS}")
AXES_LOCKOUT_CALLABLE = "casino.api.login_views.lockout_response"
# Off: axes would forget every failure *from the address* on anyone's successful login
# there. casino.services.logins.reset_own_failures forgets only that account's failures
# from that address.
AXES_RESET_ON_SUCCESS = False
# An attempt refused because a lock is on checks no password: it is not
# recorded, so it neither counts towards the address's limit below nor stretches the
# lock-out (which ends LOGIN_LOCKOUT_MINUTES after the last wrong password).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Password spraying from one address (casino.login_throttle): past this many wrong
# passwords within LOGIN_LOCKOUT_MINUTES, each further one from the address is answered
# after LOGIN_ADDRESS_DELAY_MS more per failure, at most LOGIN_ADDRESS_MAX_DELAY_MS, by
# one sleeper per host at a time; the others are answered 429 login_throttled at once.
# A right password is never slowed.
LOGIN_ADDRESS_FAILURE_LIMIT = env.env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 50, minimum=1,
                                          maximum=100_000)
LOGIN_ADDRESS_DELAY_MS = env.env_int("LOGIN_ADDRESS_DELAY_MS", 1000, minimum=0,
                                     maximum=60_000)
LOGIN_ADDRESS_MAX_DELAY_MS = env.env_int("LOGIN_ADDRESS_MAX_DELAY_MS", 5000, minimum=0,
                                         maximum=60_000)
if LOGIN_ADDRESS_MAX_DELAY_MS < LOGIN_ADDRESS_DELAY_MS:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        f"LOGIN_ADDRESS_MAX_DELAY_MS={LOGIN_ADDRESS_MAX_DELAY_MS} is below "
        f"LOGIN_ADDRESS_DELAY_MS={LOGIN_ADDRESS_DELAY_MS}")
# The reverse proxies (addresses or networks, comma-separated) whose X-Forwarded-For
# names the client; from anyone else the header is ignored (casino.login_addresses).
# Checked here, so a bad entry stops start-up with its name.
from casino.login_addresses import parse_trusted_proxies  # noqa: E402

TRUSTED_PROXIES = env.env_list("TRUSTED_PROXIES", [])
parse_trusted_proxies(TRUSTED_PROXIES)
AXES_CLIENT_IP_CALLABLE = "casino.login_addresses.client_ip"
AXES_VERBOSE = False
REST_KNOX = {
    "TOKEN_TTL": timedelta(
        hours=env.env_int("API_TOKEN_TTL_HOURS", 10, minimum=1, maximum=24 * 30)),
    "AUTO_REFRESH": False,
    "AUTH_HEADER_PREFIX": "Token",
}

# Largest request body accepted (bytes); over it every URL answers 413 request_too_large.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.env_int("REQUEST_MAX_BYTES", 1024 * 1024, minimum=1024)

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"
ASGI_APPLICATION = "casino.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # console_shell: the console's navigation, badges and waiting lists (lazy)
                "console.waiting.context",
            ],
        },
    },
]

DATABASES = {"default": env.env_database("DATABASE_URL", VAR_DIR / "casino.sqlite3")}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not SQLite's shared in-memory database, so that concurrent test writers
    # queue on the write lock exactly as the embedded default does.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
# Dates and times Django prints itself (the admin) as casino.domain.wall_clock does
FORMAT_MODULE_PATH = ["casino.formats"]
USE_I18N = False
USE_TZ = True
TIME_ZONE = "UTC"  # storage is UTC; the property's own zone decides the gaming day
PROPERTY_TIME_ZONE = env.env_timezone("PROPERTY_TIME_ZONE", "America/New_York")
GAMING_DAY_START_HOUR = env.env_int("GAMING_DAY_START_HOUR", 6, minimum=0, maximum=23)

# --- the console's sessions, page policy and second factor (issue 23) -----------------
# A console login lasts one shift, then asks again (closing the browser does not end it).
CONSOLE_SESSION_MINUTES = env.env_int("CONSOLE_SESSION_MINUTES", 10 * 60, minimum=5,
                                      maximum=24 * 60)
SESSION_COOKIE_AGE = CONSOLE_SESSION_MINUTES * 60
SESSION_EXPIRE_AT_BROWSER_CLOSE = False
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
LOGIN_URL = "/console/login/"
# How often an open "Waiting for me" asks whether anything changed (paused while hidden)
CONSOLE_POLL_SECONDS = env.env_int("CONSOLE_POLL_SECONDS", 5, minimum=1, maximum=300)
# The policy every page gets (django-csp 4.0); console.csp.LOOSENED names the few views
# that still need more, each with what it needs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}
# The issuer an authenticator app shows beside the code
OTP_TOTP_ISSUER = env.env_str("OTP_TOTP_ISSUER", "Casino back office")

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Files served from the apps' static folders as well as STATIC_ROOT: on with DEBUG, or
# STATIC_FROM_APPS=true (the tests' live servers turn it on; bin/run collects them).
WHITENOISE_USE_FINDERS = env.env_bool("STATIC_FROM_APPS", DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- REST framework -----------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Deny by default: every view must name the roles it admits (casino.roles).
    "DEFAULT_PERMISSION_CLASSES": ["casino.roles.DenyAll"],
    # drf-spectacular's AutoSchema plus the problem+json errors each operation can give and
    # the reference (tags, summaries, example requests: casino.api.reference).
    "DEFAULT_SCHEMA_CLASS": "casino.api.reference.auto_schema.ReferenceAutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "casino.api.problems.problem_exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "casino.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # limit 1-1000, offset 0-1,000,000; anything else is 400 invalid_paging.
    "DEFAULT_PAGINATION_CLASS": "casino.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino table-games back office API",
    "DESCRIPTION": "Event-sourced back office for Pennsylvania table games "
                   "(chapters 579, 589, 637a, 671a). Errors are application/problem+json "
                   "with a stable `code`.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The reference (casino.api.reference): tags in order with their one line, and a URL
    # served with and without its trailing slash documented once.
    "TAGS": API_TAGS,
    "PREPROCESSING_HOOKS": ["casino.api.reference.auto_schema.documented_once"],
    "ENUM_NAME_OVERRIDES": {
        "RulesStateEnum": "tables.models.RulesState",
        "OpenClosedEnum": "tables.models.TableStatus",
        "DeckStateEnum": "tables.models.DeckState",
        "GameEnum": "tables.models.GAME_CHOICES",
        "RemovalReasonEnum": "tables.api.serializers.REMOVAL_REASONS",
        "PlaceEnum": "jackpots.services.common.PLACES",
        "CredentialResetStateEnum": "casino.models.CredentialResetState",
        "DecisionStateEnum": "casino.models.DecisionState",
    },
}

# --- Celery -------------------------------------------------------------------------
CELERY_BROKER_URL = env.env_broker("CELERY_BROKER_URL")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "broker"
    for sub in ("out", "processed", "control"):
        (_broker_dir / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A broker that is away fails a send at once (issue 26 item 4): one connection
    # attempt with a 1 s connect timeout, instead of kombu's ~6 s of connect retries. Only
    # the outbox's relay thread and the workers send; they retry on their own.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "interval_start": 0,
                                       "interval_step": 0.2, "interval_max": 0.2,
                                       "socket_connect_timeout": 1, "socket_timeout": 5}
CELERY_BROKER_CONNECTION_TIMEOUT = 2.0
CELERY_TASK_ALWAYS_EAGER = env.env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0.2,
                                    "interval_step": 0.5, "interval_max": 1}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sweeps that recover work whose message was lost (DESIGN §5: timers also sweep).
# Deck-change time limits (589.3(c), 671a.3(c), 579.3(c), 637a.3(c)). The regulations fix
# them; the settings exist so that tests and demonstrations can shorten them.
DECK_LIMIT_SECONDS = {
    "hand": env.env_int("DECK_LIMIT_HAND_SECONDS", 4 * 3600, minimum=1),
    "shoe": env.env_int("DECK_LIMIT_SHOE_SECONDS", 8 * 3600, minimum=1),
    "poker": env.env_int("DECK_LIMIT_POKER_SECONDS", 12 * 3600, minimum=1),
}
DECK_CHANGE_WARNING_SECONDS = env.env_int("DECK_CHANGE_WARNING_SECONDS", 15 * 60, minimum=0)
# The house's control (no chapter requires it): a floorperson other than whoever reported a
# shuffler or shoe out of order puts it back in service. On unless the property turns it off.
EQUIPMENT_RESTORE_SECOND_FLOORPERSON = env.env_bool("EQUIPMENT_RESTORE_SECOND_FLOORPERSON",
                                                    True)
TIMER_SWEEP_SECONDS = env.env_int("TIMER_SWEEP_SECONDS", 60, minimum=1, maximum=3600)

# Digests of the event log, signed and kept outside the database (DESIGN §3; README "The
# event store"). The key files are checked at start-up; without a signing key one is
# generated once under VAR_DIR (production must point at a key the database host lacks).
DIGEST_DIR = Path(env.env_str("DIGEST_DIR", "") or VAR_DIR / "digests")
DIGEST_SIGNING_KEY_FILE = env.env_file("DIGEST_SIGNING_KEY_FILE")
DIGEST_PUBLIC_KEY_FILE = env.env_file("DIGEST_PUBLIC_KEY_FILE")
DIGEST_INTERVAL_SECONDS = env.env_int("DIGEST_INTERVAL_SECONDS", 300, minimum=10, maximum=86400)
# Seals over the log (a Merkle root per block of settled events, each chained to the last).
SEAL_INTERVAL_SECONDS = env.env_int("SEAL_INTERVAL_SECONDS", 60, minimum=1, maximum=86400)

# Personal data (casino.personal_data, issue 24): how many days each kind is kept after
# its record ends, then erased by the beat task (its key destroyed, the erasure an
# event). Chapter 637a sets no period; these defaults are the product's choice, each set
# per property's records policy: a list entry 30 days after it was listed (the same
# FLOOR_RETENTION_DAYS the floor reads), a player seated with a name 30 days after the
# seating, a High Hand slip's player (637a.16(f)(1)) and a Bad Beat payout's payees
# (637a.15(g)) five years after the record ended (the slip paid, not collected in time or
# not awarded; the payout made), as jackpot payouts are accounting records.
PERSONAL_DATA_RETENTION_DAYS = {
    "list_entry": env.env_int("FLOOR_RETENTION_DAYS", 30, minimum=1, maximum=3650),
    "seated_player": env.env_int("SEATED_PLAYER_RETENTION_DAYS", 30, minimum=1,
                                 maximum=3650),
    "high_hand_slip": env.env_int("HIGH_HAND_SLIP_RETENTION_DAYS", 5 * 365 + 1, minimum=1,
                                  maximum=36500),
    "bad_beat_payout": env.env_int("BAD_BEAT_PAYOUT_RETENTION_DAYS", 5 * 365 + 1, minimum=1,
                                   maximum=36500),
}
PERSONAL_DATA_ERASE_SWEEP_SECONDS = env.env_int("PERSONAL_DATA_ERASE_SWEEP_SECONDS", 3600,
                                                minimum=1, maximum=86400)

# Idempotency keys (issue 25 item 3, casino.idempotency): an API command's answer is kept
# this many hours under its Idempotency-Key, and the console's form keys as long; then the
# beat task deletes them. At least 24: a terminal that lost an answer overnight still gets
# it (the issue's minimum); at most 30 days.
IDEMPOTENCY_KEY_HOURS = env.env_int("IDEMPOTENCY_KEY_HOURS", 24, minimum=24,
                                    maximum=30 * 24)
IDEMPOTENCY_KEYS_EXPIRE_SECONDS = env.env_int("IDEMPOTENCY_KEYS_EXPIRE_SECONDS", 3600,
                                              minimum=60, maximum=86400)

CELERY_BEAT_SCHEDULE: dict = {
    # The outbox's rows a process left unsent (killed, or its relay thread behind): sent
    # (casino.outbox, issue 26 item 4).
    "outbox-relay": {"task": "casino.outbox_relay", "schedule": 10.0},
    "async-projections-sweep": {"task": "casino.run_async_projections", "schedule": 60.0},
    # A periodic digest of the log's head, and each ended gaming day's close digest.
    "event-digests": {"task": "casino.digest_write",
                      "schedule": float(DIGEST_INTERVAL_SECONDS)},
    "event-seals": {"task": "casino.events_seal", "schedule": float(SEAL_INTERVAL_SECONDS)},
    # Personal data past its retention period erased, each erasure an event (issue 24).
    "personal-data-erase-due": {"task": "casino.personal_data_erase_due",
                                "schedule": float(PERSONAL_DATA_ERASE_SWEEP_SECONDS)},
    # Idempotency keys (the API's and the console's forms') past IDEMPOTENCY_KEY_HOURS.
    "idempotency-keys-expire": {"task": "casino.idempotency_keys_expire",
                                "schedule": float(IDEMPOTENCY_KEYS_EXPIRE_SECONDS)},
    # Deck-change deadlines and Rules Submissions due to take effect whose timer message
    # was lost are caught here.
    "tables-timer-sweep": {"task": "tables.timer_sweep",
                           "schedule": float(TIMER_SWEEP_SECONDS)},
    # Poker time charges (637a.17(b)(3)): each period due at each table, missed ones too.
    "poker-time-charges": {"task": "poker_room.time_charges_sweep",
                           "schedule": float(TIMER_SWEEP_SECONDS)},
    # High Hand qualifying periods closed as they end (637a.16(g)-(h)), missed ones too.
    "high-hand-periods": {"task": "jackpots.high_hand_periods_close",
                          "schedule": float(TIMER_SWEEP_SECONDS)},
    # Jackpot box counts opened as they fall due (637a.15(d), 637a.16(d)), reminded and
    # escalated while open.
    "jackpot-counts": {"task": "jackpots.counts_due", "schedule": float(TIMER_SWEEP_SECONDS)},
    # Each fund's displayed amount checked once for the gaming day that ended (637a.15(h)).
    "jackpot-display-checks": {"task": "jackpots.display_checks",
                               "schedule": float(TIMER_SWEEP_SECONDS)},
    # Each gaming day closed once it has ended and nothing is open (or held, with what is
    # still open recorded), in each property's own time zone.
    "finance-gaming-day-close": {"task": "finance.gaming_days_close",
                                 "schedule": float(TIMER_SWEEP_SECONDS)},
    # The poker floor: calls past their deadline timed out, vacant seats offered to the
    # lists (their messages lost or never sent).
    "poker-floor-sweep": {"task": "poker_floor.floor_sweep",
                          "schedule": float(TIMER_SWEEP_SECONDS)},
}
# Finance: a variance (counted - expected) beyond this many cents either way is an
# exception to explain and sign off; 0 makes every difference one.
FINANCE_TOLERANCE_CENTS = env.env_int("FINANCE_TOLERANCE_CENTS", 0, minimum=0,
                                      maximum=100_000_00)
# A jackpot count still open is reminded every JACKPOT_COUNT_REMIND_MINUTES and escalated
# to the supervisors once after JACKPOT_COUNT_ESCALATE_MINUTES.
JACKPOT_COUNT_REMIND_MINUTES = env.env_int("JACKPOT_COUNT_REMIND_MINUTES", 60, minimum=1,
                                           maximum=24 * 60)
JACKPOT_COUNT_ESCALATE_MINUTES = env.env_int("JACKPOT_COUNT_ESCALATE_MINUTES", 240,
                                             minimum=1, maximum=7 * 24 * 60)
# The room board's screens (637a.9(c)): each TV opens /poker/board/?key=<key> without a
# staff login and sees only the board of its property. "key:licence,key:licence".
ROOM_BOARD_DISPLAY_KEYS = dict(
    item.split(":", 1) for item in env.env_list("ROOM_BOARD_DISPLAY_KEYS", [])
    if ":" in item and len(item.split(":", 1)[0]) >= 16)
# The jackpot board's screens (637a.15(b), 637a.16(b)): /jackpots/board/?key=<key>, the
# same form as the room board's keys.
JACKPOT_BOARD_DISPLAY_KEYS = dict(
    item.split(":", 1) for item in env.env_list("JACKPOT_BOARD_DISPLAY_KEYS", [])
    if ":" in item and len(item.split(":", 1)[0]) >= 16)
# How long a minute of the time-charge schedule lasts (637a.17(b)(3)(iii): every 20 or 30
# minutes); tests and demonstrations shorten it, as they shorten the deck limits.
TIME_CHARGE_MINUTE_SECONDS = env.env_int("TIME_CHARGE_MINUTE_SECONDS", 60, minimum=1,
                                         maximum=60)
# The poker floor (issue 24). A listed player's phone is read in FLOOR_PHONE_REGION
# unless written with its +country code; it is stored in E.164. (How long a list entry's
# details are kept: FLOOR_RETENTION_DAYS, in PERSONAL_DATA_RETENTION_DAYS above.)
FLOOR_PHONE_REGION = env.env_str("FLOOR_PHONE_REGION", "US")
# A seat that opens at a table of a listed game is offered to the list's first player at
# once, and the sweep offers any still vacant (False: only the floor calls players).
FLOOR_AUTO_CALL = env.env_bool("FLOOR_AUTO_CALL", True)
# How long a minute of a call's time to come lasts (the Rules' call_minutes); tests and
# demonstrations shorten it, as they shorten the time-charge schedule.
FLOOR_CALL_MINUTE_SECONDS = env.env_int("FLOOR_CALL_MINUTE_SECONDS", 60, minimum=1,
                                        maximum=60)
# The estimated wait of each place on a list (poker_floor.wait): the seat openings of the
# last FLOOR_WAIT_WINDOW_HOURS measure the rate; with fewer than FLOOR_WAIT_MIN_OPENINGS
# in that window the wait is "unknown" (10 openings measure the rate to about ±30%).
FLOOR_WAIT_WINDOW_HOURS = env.env_int("FLOOR_WAIT_WINDOW_HOURS", 3, minimum=1, maximum=24)
FLOOR_WAIT_MIN_OPENINGS = env.env_int("FLOOR_WAIT_MIN_OPENINGS", 10, minimum=1,
                                      maximum=1000)
# Paging a called player (issue 24): Apprise URLs (any service, configured by URL).
# PAGING_SMS_URL has {phone} where the number goes ("twilio://SID:TOKEN@+15550001111/
# {phone}"); blank: no SMS. PAGING_EMAIL_URL has {email}; blank: e-mail goes through
# Django's e-mail backend (EMAIL_* settings) from PAGING_FROM_EMAIL (or
# DEFAULT_FROM_EMAIL). No page waits longer than PAGING_TIMEOUT_SECONDS.
PAGING_SMS_URL = env.env_str("PAGING_SMS_URL", "")
# E-mail (pages by e-mail, through Django's backend): an SMTP server when EMAIL_HOST is
# set; without one (the embedded default has no servers) each message is written as a
# file under VAR_DIR/mail/, where a demonstration can read the pages sent.
EMAIL_HOST = env.env_str("EMAIL_HOST", "")
EMAIL_PORT = env.env_int("EMAIL_PORT", 587, minimum=1, maximum=65535)
EMAIL_HOST_USER = env.env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.env_bool("EMAIL_USE_TLS", True)
EMAIL_BACKEND = ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                 else "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = str(VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = env.env_str("DEFAULT_FROM_EMAIL", "poker-desk@localhost")
PAGING_EMAIL_URL = env.env_str("PAGING_EMAIL_URL", "")
PAGING_FROM_EMAIL = env.env_str("PAGING_FROM_EMAIL", "")
PAGING_TIMEOUT_SECONDS = env.env_int("PAGING_TIMEOUT_SECONDS", 5, minimum=1, maximum=60)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.env_str("LOG_LEVEL", "INFO")},
    # psycopg warns each time a pipeline ends in an error; for the event store that is
    # a refused append (stale version), which the caller already handles.
    "loggers": {"psycopg": {"level": "ERROR"}},
}

# --- the public live games feed and its kiosk (issue 24, item 6) ---------------------
# CACHE_URL (redis://...): one cache for every process of every host (the feed's and
# the kiosk's rate limits, the kiosk's pending requests). Without it both caches keep to
# folders under VAR_DIR, shared by every process on the host (bin/run's gunicorn
# workers): a limit counted in each process's memory let each worker allow all of it
# (issue 35 item 4; casino.rate_limits counts there under an flock), and a code asked
# for from one web worker is confirmed at another.
CACHE_URL = env.env_str("CACHE_URL", "")
if CACHE_URL and not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"CACHE_URL={CACHE_URL!r} is not a redis:// URL")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": str(VAR_DIR / "cache" / "default"),
                # the feed's counts are one entry per address a minute: room for
                # thousands before the cache culls a third of its entries
                "OPTIONS": {"MAX_ENTRIES": 5000}},
    "kiosk": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
              "LOCATION": str(VAR_DIR / "cache" / "kiosk")},
}
# A Redis that is away is answered in a second (503 cache_unreachable, casino.outage),
# not after the kernel's connect and read timeouts (minutes).
CACHE_REDIS_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}
if CACHE_URL:
    CACHES = {alias: {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                      "LOCATION": CACHE_URL, "KEY_PREFIX": alias,
                      "OPTIONS": dict(CACHE_REDIS_OPTIONS)}
              for alias in ("default", "kiosk")}
# The feed's JSON is built at most this often per process (a change committed in the
# process drops it at once): never more than this stale (milliseconds, 0..1000).
FEED_CACHE_SECONDS = env.env_int("FEED_CACHE_MS", 500, minimum=0, maximum=1000) / 1000
# Requests a minute one client address may make of the feed (its page and JSON); 429
# rate_limited past it. The page asks once a second: 600 lets ten viewers share an
# address (a casino's or a phone network's NAT).
FEED_RATE_PER_MINUTE = env.env_int("FEED_RATE_PER_MINUTE", 600, minimum=1,
                                   maximum=10_000_000)
# The kiosk form (a player adds themselves to a list from the feed's page, with a code
# texted to their phone): off unless turned on. Requests for a code allowed per phone a
# day and per client address an hour (429 kiosk_limit past them).
FLOOR_KIOSK = env.env_bool("FLOOR_KIOSK", False)
KIOSK_PER_PHONE_PER_DAY = env.env_int("KIOSK_PER_PHONE_PER_DAY", 3, minimum=1, maximum=100)
KIOSK_PER_ADDRESS_PER_HOUR = env.env_int("KIOSK_PER_ADDRESS_PER_HOUR", 10, minimum=1,
                                         maximum=10_000)
