"""Django settings for Patience, read from the environment.

Defaults suit local development (SQLite, in-memory channel layer, DEBUG on); production sets
SECRET_KEY, DEBUG=0, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL.
"""

import math
import os
import zlib
from collections import Counter
from pathlib import Path
from typing import TypeVar

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from redis.connection import parse_url as parse_redis_url

BASE_DIR = Path(__file__).resolve().parent.parent

_FALSE_STRINGS = {"0", "false", "no", "off", ""}
_TRUE_STRINGS = {"1", "true", "yes", "on"}
_Number = TypeVar("_Number", int, float)


def env_bool(name: str, default: bool) -> bool:
    """Read an on/off env var: "1", "true", "yes", "on" or "0", "false", "no", "off" (any
    case), "" meaning off. Anything else stops the service rather than guess."""
    value = os.environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word not in _TRUE_STRINGS | _FALSE_STRINGS:
        raise ImproperlyConfigured(
            f"{name} must be one of 1, true, yes, on, 0, false, no, off, not {value!r}."
        )
    return word in _TRUE_STRINGS


def env_number(name: str, default: _Number) -> _Number:
    """Read a numeric env var (a whole number when the default is one); a value that is not
    stops the service with its name rather than a bare ValueError."""
    value = os.environ.get(name)
    if value is None:
        return default
    kind = type(default)
    try:
        return kind(value.strip())
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise ImproperlyConfigured(f"{name} must be {what}, not {value!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated env var, dropping blanks."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


INSECURE_DEFAULT_SECRET_KEY = "django-insecure-patience-dev-only-do-not-use-in-production"

# A production secret's least length and variety: the numbers of Django's own deployment check
# (security.W009), which only warns; here the service refuses to start. Beyond them, a secret
# must not be Django's generated development key (startproject's ``django-insecure-`` prefix)
# and its estimated entropy (_entropy_bits) must reach SECRET_MIN_ENTROPY_BITS. Estimated: a
# word repeated to the length, ``abcde`` * 10, 19 bits, ``patience-secret-`` * 4, 59; random
# keys of MAKE_A_SECRET 320 or more, Django's get_random_secret_key() 215 or more, 50 random
# hexadecimal digits 137 or more (the least of 3,000 of each).
SECRET_MIN_LENGTH = 50
SECRET_MIN_DISTINCT_CHARACTERS = 5
SECRET_MIN_ENTROPY_BITS = 100
MAKE_A_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(50))"'


def _entropy_bits(secret: str) -> float:
    """A rough estimate of the bits in ``secret``: its characters' Shannon entropy (few
    different characters give little), counted only over what zlib cannot compress away
    (a repeat is stored as a reference; 8 bytes of the output are the format's own)."""
    data = secret.encode()
    per_character = -sum(n / len(data) * math.log2(n / len(data)) for n in Counter(data).values())
    left = min(len(data), len(zlib.compress(data, 9)) - 8)
    return left * per_character


def _weakness(secret: str) -> str | None:
    """Why ``secret`` is too weak for production, or None. Never says the secret itself."""
    if len(secret) < SECRET_MIN_LENGTH:
        return f"it is shorter than {SECRET_MIN_LENGTH} characters"
    if len(set(secret)) < SECRET_MIN_DISTINCT_CHARACTERS:
        return f"it has fewer than {SECRET_MIN_DISTINCT_CHARACTERS} different characters"
    if secret.startswith("django-insecure-"):
        return "it is a Django development key (django-insecure-...)"
    if _entropy_bits(secret) < SECRET_MIN_ENTROPY_BITS:
        return "it is too predictable (a word repeated, or a pattern)"
    return None


DEBUG = env_bool("DEBUG", default=True)
SECRET_KEY = os.environ.get("SECRET_KEY", INSECURE_DEFAULT_SECRET_KEY)
if not DEBUG:
    # Sessions and signed data would be forgeable by anyone who has read this file, or who
    # can guess a short key.
    if SECRET_KEY == INSECURE_DEFAULT_SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    if weakness := _weakness(SECRET_KEY):
        raise ImproperlyConfigured(
            f"SECRET_KEY is too weak for DEBUG off: {weakness}. Make one with: {MAKE_A_SECRET}"
        )

# The key of the daily challenges' seeds (games.daily), and of the HMAC each closed day
# publishes: whoever knows it can compute every future daily deal. With DEBUG off it is a
# secret of its own (a leak of one key does not give away the other); in development it
# defaults to one derived from SECRET_KEY.
DAILY_SECRET = os.environ.get("DAILY_SECRET", "").strip()
if not DEBUG:
    if not DAILY_SECRET:
        raise ImproperlyConfigured("DAILY_SECRET must be set when DEBUG is off.")
    if DAILY_SECRET == SECRET_KEY:
        raise ImproperlyConfigured("DAILY_SECRET must not be the SECRET_KEY.")
    if weakness := _weakness(DAILY_SECRET):
        raise ImproperlyConfigured(
            f"DAILY_SECRET is too weak for DEBUG off: {weakness}. Make one with: {MAKE_A_SECRET}"
        )
DAILY_SECRET = DAILY_SECRET or f"daily:{SECRET_KEY}"

# "testserver" is the host Django's test client sends.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
# Origins other than the site's own whose pages may write with the session (Django's CSRF check)
# and open its websockets (web.http.origins), e.g. "https://patience.example.org" when a proxy
# does not pass the Host header the browser used.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "frontend.views.csrf_failure"  # JSON under /api/, the site's page elsewhere

INSTALLED_APPS = [
    # daphne first so its runserver replaces Django's with an ASGI one.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "accounts",
    "games",
    "frontend",
]

MIDDLEWARE = [
    # First: a request whose database connection was lost runs again, or gets a 503.
    "web.http.db_outage.RetryOnLostConnection",
    "django.middleware.security.SecurityMiddleware",
    "web.http.security.ContentSecurityPolicyMiddleware",
    # Serves collected static files when DEBUG is off (production runs no separate file server).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "web.http.errors.PrivateApiResponses",
    "web.http.errors.ApiServerErrorMiddleware",
    "frontend.middleware.NotFoundPageMiddleware",
]

# Database sessions that know their account: "Sign out of other devices" ends them by account.
SESSION_ENGINE = "accounts.sessions"

# Error reports never show local variables (a game's hidden cards may be among them).
DEFAULT_EXCEPTION_REPORTER_FILTER = "web.http.errors.HiddenCardsReporterFilter"

ROOT_URLCONF = "config.urls"

# Served over HTTPS (behind a TLS-terminating proxy that sends X-Forwarded-Proto to
# ``deploy.serve --proxy-headers``): on by default with DEBUG off. Cookies go over HTTPS only,
# plain HTTP is redirected (but for the health check a load balancer may call), and browsers
# are told to use HTTPS only for HSTS_SECONDS. HTTPS=0 for a server reached over plain HTTP
# (a local run with DEBUG off, the benchmarks).
HTTPS = env_bool("HTTPS", default=not DEBUG)
if HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^api/health/$"]
    SECURE_HSTS_SECONDS = env_number("HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", default=False)
    # Whether HSTS should cover the domain's other sites, or be preloaded into browsers (hard to
    # undo), is the domain owner's call: off unless asked for, and Django's checks not to nag.
    SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]

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
                "frontend.context_processors.cards",
                "frontend.context_processors.guest",
                "frontend.context_processors.player_settings",
                "frontend.context_processors.dailies_today",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"


def _prepare_threshold(value: str) -> int | None:
    if value.strip().lower() in ("none", "off", ""):
        return None
    try:
        return max(0, int(value))
    except ValueError:
        raise ImproperlyConfigured(
            f"DATABASE_PREPARE_THRESHOLD must be a number or 'none', not {value!r}."
        ) from None


# A host that vanishes mid-transaction (its network cut: no reset, no FIN) kept the rows it
# had locked until PostgreSQL's TCP gave up on it, after the system's keepalive (2 hours): a
# game's row under a move, the deal a worker was storing (the cluster test saw the other worker,
# having taken the job over, wait on it). PostgreSQL ends such a session after 10 s idle and 3
# probes 5 s apart, or 25 s of data unacknowledged, as it does the worker's lock session
# (games/background/locks.py); and this end gives up on a vanished server as soon.
_DATABASE_KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 25_000,
    "options": (
        "-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3"
        " -c tcp_user_timeout=25000"
    ),
}

# Unset: a SQLite file beside manage.py, so a fresh checkout runs with no services.
# Set (e.g. postgres://user@host:5432/name): dj-database-url picks the psycopg 3 backend.
_database_url = os.environ.get("DATABASE_URL")
if _database_url:
    DATABASES = {"default": dj_database_url.parse(_database_url)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI each request runs in a new thread, so per-thread persistent connections
        # are never reused and pile up; a pool shared by the threads of a process is.
        DATABASES["default"]["OPTIONS"] = {
            "pool": {
                "min_size": env_number("DATABASE_POOL_MIN", 2),
                "max_size": env_number("DATABASE_POOL_MAX", 20),
                "timeout": 10,
            },
            # Parameters sent apart from the SQL (the extended protocol): a round trip took
            # half the time of psycopg's default client-side binding here (87 vs 184 µs).
            "server_side_binding": True,
            # A statement run this many times on a connection is prepared: PostgreSQL parses
            # and plans it once. Django turns this off by default (for poolers that move a
            # session between connections); its own pool keeps sessions, and PostgreSQL's CPU
            # per move halved (1.4-1.6 to 0.7-0.9 ms). "none" for such a pooler.
            "prepare_threshold": _prepare_threshold(
                os.environ.get("DATABASE_PREPARE_THRESHOLD", "5")
            ),
            **_DATABASE_KEEPALIVES,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no row locks (select_for_update does nothing): two moves on one game at once
    # both read, and the second to write failed with "database is locked" (a 500) when it
    # tried to upgrade its read lock. A transaction takes the write lock when it begins
    # (IMMEDIATE), so actions on a game queue up one after the other, as on PostgreSQL; WAL
    # lets pages read meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    )

# Redis lets several server processes share websocket groups; in-memory is one process only.
# Redis's own publish/subscribe: a group message is one PUBLISH, which each process receives
# once for all its watchers of the group. The list-based RedisChannelLayer took two round
# trips and a script per message: 205-226 us of the sender's CPU and 54-62 us of Redis's for
# a 2.6 KB game update, against 101-136 and 30-33 us (bench/publish_bench.py).
# What pub/sub gives up, nothing here uses: messages kept for a consumer that is not
# listening (a reconnecting client catches up from the database), and channel capacities.
# Pub/sub channels are not per database, so the prefix names REDIS_URL's: services given
# different databases of one Redis stay apart, as they did with the list-based layer.
REDIS_URL = _redis_url = os.environ.get("REDIS_URL") or None
if _redis_url:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": _redis_url, "socket_timeout": 15}],
                "prefix": f"patience-db{parse_redis_url(_redis_url).get('db', 0)}.",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LOGIN_URL = "/signin/"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / ".staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The five games' rule documents (the specification), served on the rules pages.
# The folder is named "seeds" (the layout is given); a "seed" elsewhere is a deal number.
RULE_DOCUMENTS_DIR = BASE_DIR / "seeds"

# -- the API ---------------------------------------------------------------------------------

# Accounts created from one client address in an hour: room for a class or an office signing
# up together behind one address, not for a script filling the site with accounts. 0: no limit.
SIGN_UPS_PER_ADDRESS_PER_HOUR = env_number("SIGN_UPS_PER_ADDRESS_PER_HOUR", 30)
EMAIL_CHANGES_PER_HOUR = env_number("EMAIL_CHANGES_PER_HOUR", 10)
# Saves of an account's settings in a minute (each choice in the dialog is one); 0: no limit.
SETTINGS_CHANGES_PER_MINUTE = env_number("SETTINGS_CHANGES_PER_MINUTE", 60)
# Guests (accounts.guests): a visitor's first game makes a player for the browser's session.
# Guests made from one client address in an hour (a NAT's crowd of visitors, not a script
# filling the database with players); 0: no limit. A guest untouched (no game started or
# moved) for GUEST_TTL_DAYS is removed with its games by the worker's ``guests`` job.
GUESTS_PER_ADDRESS_PER_HOUR = env_number("GUESTS_PER_ADDRESS_PER_HOUR", 60)
GUEST_TTL_DAYS = env_number("GUEST_TTL_DAYS", 30)
# The costly requests of play (games.play.throttling), per player AND per client address: a
# request passes only when both have room; 0: no limit. A hint searches for up to HINT_SECONDS
# of a hint process's CPU (one player's searches run one at a time, and at most
# HINT_SEARCHES_PER_ADDRESS of one address's at once); a new game is a deal and a row (a daily
# replay and a ranked attempt count as one); a winnable one is also a deal out of a pool the
# solver fills slowly (WINNABLE_POOL_SIZE per game), and a player holds at most
# UNPLAYED_WINNABLE_LIMIT of them with no move made. The per-player budgets are room for
# anyone playing, not for a script; a guest gets GUEST_SHARE_PERCENT of an account's, and all
# the guests made from one address share its one budget (GUESTS_PER_ADDRESS_PER_HOUR of them
# no longer multiply it). An address's budget is a few players' worth: a class or an office
# behind one NAT plays at once, and a crowd of guests gets no more (docs/production.md).
HINTS_PER_MINUTE = env_number("HINTS_PER_MINUTE", 20)
HINTS_PER_ADDRESS_PER_MINUTE = env_number("HINTS_PER_ADDRESS_PER_MINUTE", 60)
HINT_SEARCHES_PER_ADDRESS = env_number("HINT_SEARCHES_PER_ADDRESS", 2)
GAMES_CREATED_PER_MINUTE = env_number("GAMES_CREATED_PER_MINUTE", 30)
GAMES_CREATED_PER_ADDRESS_PER_MINUTE = env_number("GAMES_CREATED_PER_ADDRESS_PER_MINUTE", 120)
WINNABLE_GAMES_PER_HOUR = env_number("WINNABLE_GAMES_PER_HOUR", 20)
WINNABLE_GAMES_PER_ADDRESS_PER_HOUR = env_number("WINNABLE_GAMES_PER_ADDRESS_PER_HOUR", 40)
UNPLAYED_WINNABLE_LIMIT = env_number("UNPLAYED_WINNABLE_LIMIT", 3)
GUEST_SHARE_PERCENT = env_number("GUEST_SHARE_PERCENT", 50)
# Following players (accounts.follows): follows and unfollows per account and per address
# (a burst of taps on leaderboard rows passes; a script walking every name does not), and
# how many players one account may follow (each is a row its friends' boards filter by).
FOLLOWS_PER_MINUTE = env_number("FOLLOWS_PER_MINUTE", 30)
FOLLOWS_PER_ADDRESS_PER_MINUTE = env_number("FOLLOWS_PER_ADDRESS_PER_MINUTE", 120)
MAX_FOLLOWING = env_number("MAX_FOLLOWING", 500)
# Analyses of finished games (games.analysis): each is made once, by the worker's
# ``analyses`` job, a search per position of the game's line (at most ANALYSIS_POSITION_SECONDS
# and ANALYSIS_POSITION_POSITIONS each, ANALYSIS_SECONDS in all). Asking is limited per player
# and per address (an hour's), and a player has at most ANALYSES_QUEUED_PER_PLAYER waiting.
ANALYSES_PER_HOUR = env_number("ANALYSES_PER_HOUR", 30)
ANALYSES_PER_ADDRESS_PER_HOUR = env_number("ANALYSES_PER_ADDRESS_PER_HOUR", 60)
ANALYSES_QUEUED_PER_PLAYER = env_number("ANALYSES_QUEUED_PER_PLAYER", 3)
ANALYSIS_POSITION_SECONDS = env_number("ANALYSIS_POSITION_SECONDS", 5)
ANALYSIS_POSITION_POSITIONS = env_number("ANALYSIS_POSITION_POSITIONS", 1_000_000)
ANALYSIS_SECONDS = env_number("ANALYSIS_SECONDS", 60)
# Races (games.races): players in a room, the countdown before its games take moves, its time
# limit when the opener names none; rooms opened and joined (a quick race counts as a join) per
# player and per address in an hour (a guest at GUEST_SHARE_PERCENT).
RACE_MAX_PLAYERS = env_number("RACE_MAX_PLAYERS", 10)
RACE_COUNTDOWN_SECONDS = env_number("RACE_COUNTDOWN_SECONDS", 3)
RACE_TIME_LIMIT_SECONDS = env_number("RACE_TIME_LIMIT_SECONDS", 600)
RACES_OPENED_PER_HOUR = env_number("RACES_OPENED_PER_HOUR", 30)
RACES_OPENED_PER_ADDRESS_PER_HOUR = env_number("RACES_OPENED_PER_ADDRESS_PER_HOUR", 120)
RACES_JOINED_PER_HOUR = env_number("RACES_JOINED_PER_HOUR", 120)
RACES_JOINED_PER_ADDRESS_PER_HOUR = env_number("RACES_JOINED_PER_ADDRESS_PER_HOUR", 480)
RACE_INVITES_PER_HOUR = env_number("RACE_INVITES_PER_HOUR", 60)
RACE_INVITES_PER_ADDRESS_PER_HOUR = env_number("RACE_INVITES_PER_ADDRESS_PER_HOUR", 240)


def _rate(number: int, period: str, share_percent: int = 100) -> str | None:
    """A throttle rate, ``share_percent`` of ``number`` (at least 1) per ``period``; None for
    0 (no limit)."""
    if not number:
        return None
    return f"{max(1, number * share_percent // 100)}/{period}"


REST_FRAMEWORK = {
    # Token first: an unauthenticated request gets 401 with a WWW-Authenticate header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        # The session, and the check that a page writes as the account it was opened as.
        "accounts.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["web.http.parsers.JSONParser"],
    # ASCII-escaped output: a client's invalid unicode echoed in a message cannot break it.
    "UNICODE_JSON": False,
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "web.http.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "password_reset": "10/hour",
        "register": (
            f"{SIGN_UPS_PER_ADDRESS_PER_HOUR}/hour" if SIGN_UPS_PER_ADDRESS_PER_HOUR else None
        ),
        "email_change": f"{EMAIL_CHANGES_PER_HOUR}/hour" if EMAIL_CHANGES_PER_HOUR else None,
        "settings_change": (
            f"{SETTINGS_CHANGES_PER_MINUTE}/min" if SETTINGS_CHANGES_PER_MINUTE else None
        ),
        "guest": f"{GUESTS_PER_ADDRESS_PER_HOUR}/hour" if GUESTS_PER_ADDRESS_PER_HOUR else None,
        "hint": _rate(HINTS_PER_MINUTE, "min"),
        "hint_guest": _rate(HINTS_PER_MINUTE, "min", GUEST_SHARE_PERCENT),
        "hint_address": _rate(HINTS_PER_ADDRESS_PER_MINUTE, "min"),
        "game_create": _rate(GAMES_CREATED_PER_MINUTE, "min"),
        "game_create_guest": _rate(GAMES_CREATED_PER_MINUTE, "min", GUEST_SHARE_PERCENT),
        "game_create_address": _rate(GAMES_CREATED_PER_ADDRESS_PER_MINUTE, "min"),
        "winnable": _rate(WINNABLE_GAMES_PER_HOUR, "hour"),
        "winnable_guest": _rate(WINNABLE_GAMES_PER_HOUR, "hour", GUEST_SHARE_PERCENT),
        "winnable_address": _rate(WINNABLE_GAMES_PER_ADDRESS_PER_HOUR, "hour"),
        "follow": _rate(FOLLOWS_PER_MINUTE, "min"),
        "follow_address": _rate(FOLLOWS_PER_ADDRESS_PER_MINUTE, "min"),
        "analysis": _rate(ANALYSES_PER_HOUR, "hour"),
        "analysis_guest": _rate(ANALYSES_PER_HOUR, "hour", GUEST_SHARE_PERCENT),
        "analysis_address": _rate(ANALYSES_PER_ADDRESS_PER_HOUR, "hour"),
        "race_open": _rate(RACES_OPENED_PER_HOUR, "hour"),
        "race_open_guest": _rate(RACES_OPENED_PER_HOUR, "hour", GUEST_SHARE_PERCENT),
        "race_open_address": _rate(RACES_OPENED_PER_ADDRESS_PER_HOUR, "hour"),
        "race_join": _rate(RACES_JOINED_PER_HOUR, "hour"),
        "race_join_guest": _rate(RACES_JOINED_PER_HOUR, "hour", GUEST_SHARE_PERCENT),
        "race_join_address": _rate(RACES_JOINED_PER_ADDRESS_PER_HOUR, "hour"),
        # A guest invites nobody: no guest's share.
        "race_invite": _rate(RACE_INVITES_PER_HOUR, "hour"),
        "race_invite_address": _rate(RACE_INVITES_PER_ADDRESS_PER_HOUR, "hour"),
        # Declining one ("Not now"): as many as one may be sent.
        "race_decline": _rate(RACE_INVITES_PER_HOUR, "hour"),
        "race_decline_address": _rate(RACE_INVITES_PER_ADDRESS_PER_HOUR, "hour"),
    },
    # drf-spectacular's, documenting the session's 409 account_changed on every write.
    "DEFAULT_SCHEMA_CLASS": "accounts.schema.AutoSchema",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Patience API",
    "DESCRIPTION": "Five patience games: accounts, saved games, moves checked by the rules engine.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI served from this site, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A game's number in a path (games/converters.py) is an integer, minus sign allowed.
    "PATH_CONVERTER_OVERRIDES": {"game_id": int},
}

# Daily challenges (games.daily.challenges): a day deals the first of its candidate seeds
# that the solver proves winnable within DAILY_SOLVER_SECONDS and DAILY_SOLVER_POSITIONS per
# candidate (5,000,000 positions: 2-8 s of the compiled core, games/solver/_core.c, on one
# core of a busy 2-core machine; up to ~400 MB while it searches; docs/solver.md). After
# DAILY_SOLVER_CANDIDATES candidates without a proof the day deals candidate 0, marked not
# proven (and logged as an error). DAILY_PREPARE_DAYS: days ahead of today kept prepared.
# DAILY_SOLVER_SUBPROCESS off: solve in the calling thread (tests; the server keeps it on, so
# that the CPU-bound search never holds the server's GIL against requests).
DAILY_SOLVER_SECONDS = env_number("DAILY_SOLVER_SECONDS", 10.0)
DAILY_SOLVER_POSITIONS = env_number("DAILY_SOLVER_POSITIONS", 5_000_000)
DAILY_SOLVER_CANDIDATES = env_number("DAILY_SOLVER_CANDIDATES", 50)
DAILY_PREPARE_DAYS = env_number("DAILY_PREPARE_DAYS", 2)
DAILY_SOLVER_SUBPROCESS = env_bool("DAILY_SOLVER_SUBPROCESS", True)

# Closing days, preparing dailies and filling the winnable-deal pools are the worker role's
# (`manage.py worker`, games.background.worker), never a web process's.

# Winnable deals (games.play.winnable_pool): the worker keeps every game's pool of deals the
# solver has proven winnable topped up to WINNABLE_POOL_SIZE, in a child process at a lower
# priority, searching each random deal for at most WINNABLE_POOL_SECONDS (and
# WINNABLE_POOL_POSITIONS, as the daily's budget).
WINNABLE_POOL_SIZE = env_number("WINNABLE_POOL_SIZE", 20)
WINNABLE_POOL_SECONDS = env_number("WINNABLE_POOL_SECONDS", 10.0)
WINNABLE_POOL_POSITIONS = env_number("WINNABLE_POOL_POSITIONS", 5_000_000)
#: What a refusal for an empty pool asks the client to wait, in seconds (Retry-After).
WINNABLE_POOL_RETRY_AFTER = 30

# Leaderboards: how many ranked games a player needs to appear by win rate.
LEADERBOARD_MIN_GAMES = env_number("LEADERBOARD_MIN_GAMES", 5)

# A game's time is its active time (games.core.clock): the time between two entries of its
# history counts up to CLOCK_CAP_SECONDS. Five minutes (issue 46; why: docs/api.md "A game's
# time"): the cap bounds what a tab left open costs, not how long a player may think, and a
# routine move takes seconds (about 2.5 s by the Keystroke-Level Model), so a thinking player
# almost never meets it. 60 s froze the page's clock at 1:00 in front of players still there.
CLOCK_CAP_SECONDS = env_number("CLOCK_CAP_SECONDS", 300)
# A game with no move left that many minutes is deleted by the worker (games.background.tidy);
# 0: never.
UNTOUCHED_GAME_MINUTES = env_number("UNTOUCHED_GAME_MINUTES", 60)
# A casual game left at a dead end (no legal move: its player may still undo out of it) that
# many minutes after its last move is ended, lost, by the worker (games.background.tidy); 0:
# never (it still ends when its player starts another game).
DEAD_END_MINUTES = env_number("DEAD_END_MINUTES", 30)

# Websockets: a client sending more than LIMIT messages in PERIOD seconds is disconnected
# (close code 4429); a game watcher further behind than CATCH_UP_LIMIT versions gets a full
# resync; a leaderboard is pushed to a watcher at most once per PUSH_INTERVAL seconds.
WEBSOCKET_MESSAGE_LIMIT = env_number("WEBSOCKET_MESSAGE_LIMIT", 20)
WEBSOCKET_MESSAGE_PERIOD = env_number("WEBSOCKET_MESSAGE_PERIOD", 10.0)
# Moves, undos, resignations and ends sent on a game's websocket are counted apart, at most
# this many per WEBSOCKET_MESSAGE_PERIOD per connection (one more is answered 429 throttled,
# the socket kept): a Finish sends each card home as a move of its own. With the connection
# caps below, a player has at most WEBSOCKET_CONNECTIONS_PER_ACCOUNT times this, an address
# WEBSOCKET_CONNECTIONS_PER_ADDRESS times this.
WEBSOCKET_ACTION_LIMIT = env_number("WEBSOCKET_ACTION_LIMIT", 100)
WEBSOCKET_CATCH_UP_LIMIT = 50
# The largest websocket message a client may send, in bytes (a page sends only pings, 15
# bytes): a larger one closes the socket with 4413 before it is decoded (games.consumers), and
# deploy.serve has uvicorn refuse it before it is buffered (1009).
WEBSOCKET_MAX_MESSAGE_BYTES = env_number("WEBSOCKET_MAX_MESSAGE_BYTES", 4096)
LEADERBOARD_PUSH_INTERVAL = env_number("LEADERBOARD_PUSH_INTERVAL", 0.25)
# The most a hint may search (games.solver.lookahead), in seconds: its request's thread waits
# that long (a little more at most), but holds no transaction.
HINT_SECONDS = env_number("HINT_SECONDS", 1.0)
# Hint searches run in this many child processes of each server process, at the lowest CPU
# priority (games.play.hint_pool), so that they never take a core from a request; at most
# twice as many searches at once per server process, a hint past that is the rule-of-thumb
# one. 0: search in the request's thread (the tests; it competes with the requests for cores).
HINT_PROCESSES = env_number("HINT_PROCESSES", 1)
# Websockets open at once (web.live.connection_cap), over every server process; more are closed
# with code 4430, and 0 turns a cap off. Each page opens at most one, so 30 per account is
# thirty pages of one player open on all their devices and scripts together, more than anyone
# plays or watches, while one account (or a leaked token) cannot hold thousands of the
# server's connections (~90 KiB of memory each, bench/README.md). An address is shared by
# everyone behind one NAT (an office, a school, a mobile carrier): 300 is room for a crowd
# there watching the daily boards, and bounds what one machine can hold open. The slots of a
# process that dies expire after CONNECTION_TTL seconds (renewed at a third of that).
WEBSOCKET_CONNECTIONS_PER_ACCOUNT = env_number("WEBSOCKET_CONNECTIONS_PER_ACCOUNT", 30)
WEBSOCKET_CONNECTIONS_PER_ADDRESS = env_number("WEBSOCKET_CONNECTIONS_PER_ADDRESS", 300)
WEBSOCKET_CONNECTION_TTL = 60.0
# Each server process checks every so many seconds that its channel layer (Redis) still
# delivers, and closes its live websockets (code 4503) when it does not, so pages reconnect and
# catch up rather than miss updates while saying "Live" (web.live.layer_watch). 0: no check.
LIVE_LAYER_CHECK_SECONDS = env_number("LIVE_LAYER_CHECK_SECONDS", 5.0)
# A live update is sent after its change commits, and its request waits for Redis at most this
# long (web.live.publish): a Redis that hangs delays answers by this much, never holds them.
LIVE_UPDATE_TIMEOUT_SECONDS = env_number("LIVE_UPDATE_TIMEOUT_SECONDS", 2.0)

# API keys a server process has signed in with are kept this many seconds (accounts.token_cache),
# and forgotten at once, in every process, when their user or token changes; the time bounds
# only what no message reports (a QuerySet.update of users; without Redis, another process's
# change). 0: look every key up every time.
API_TOKEN_CACHE_SECONDS = env_number("API_TOKEN_CACHE_SECONDS", 10.0)

# Email carries password reset links. Without EMAIL_HOST each message is printed to stderr (the
# server's log), which is how a local install shows them.
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = env_number("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Patience <noreply@localhost>")
# A reset link works once, and for this long.
PASSWORD_RESET_TIMEOUT = 24 * 3600
# Reset emails one address may be sent per PASSWORD_RESET_EMAIL_WINDOW seconds, and requests
# one client may make per hour (either limit: no email, the same answer).
PASSWORD_RESET_EMAIL_LIMIT = 3
PASSWORD_RESET_EMAIL_WINDOW = 3600

# A move is a few hundred bytes; anything near this limit is not a real request.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# Throttling counters must be shared by every server process when there are several.
if _redis_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _redis_url,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Fair play: automatic flags on ranked attempts (games.moderation.fair_play). A burst
# is BURST_MOVES moves in a row, each under BURST_MS after the one before (keep it under the
# play page's Finish pace, FINISH_STEP_MS, 220 ms); a win faster than MIN_SECONDS_PER_MOVE per
# move on the board, timed from the first move and leaving out its final run of moves to the
# foundations, is implausible. A fast window is WINDOW_MOVES moves in a row (before that final
# run) taking under WINDOW_SECONDS together, or most of them each under BURST_MS: the figures
# that chose them are in docs/staff.md (keep WINDOW_SECONDS / WINDOW_MOVES under 0.22 s too).
FAIR_PLAY_BURST_MOVES = env_number("FAIR_PLAY_BURST_MOVES", 10)
FAIR_PLAY_BURST_MS = env_number("FAIR_PLAY_BURST_MS", 150.0)
FAIR_PLAY_MIN_SECONDS_PER_MOVE = env_number("FAIR_PLAY_MIN_SECONDS_PER_MOVE", 0.5)
FAIR_PLAY_WINDOW_MOVES = env_number("FAIR_PLAY_WINDOW_MOVES", 20)
FAIR_PLAY_WINDOW_SECONDS = env_number("FAIR_PLAY_WINDOW_SECONDS", 3.0)

# Errors (a 500's traceback included) go to stderr, where the process manager collects them.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
