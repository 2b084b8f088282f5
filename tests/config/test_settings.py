"""Settings are read at import, so each case imports them in a fresh interpreter."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CONTROLLED = (
    "DEBUG",
    "SECRET_KEY",
    "DAILY_SECRET",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "DATABASE_PREPARE_THRESHOLD",
    "HTTPS",
    "HSTS_SECONDS",
    "HSTS_INCLUDE_SUBDOMAINS",
    "HSTS_PRELOAD",
    "LEADERBOARD_MIN_GAMES",
    "LEADERBOARD_PUSH_INTERVAL",
)

# What production is given: keys made as docs/production.md says (secrets.token_urlsafe(50)),
# a DAILY_SECRET of its own.
STRONG_KEY = "vcRs03T3VDMTd1zyexW_IOTDBmG1xBuczOddOGk42uO6Zh4u_d2p2yu7ybTe6uc7l7A"
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": STRONG_KEY,
    "DAILY_SECRET": "CLcLEb_fk7CmeEwTkTXRbhy2J4231PS6pHLL93WKxwZSZjMcrZ1N4bjXbuyiKBF8LzY",
}
MAKE_ONE = 'Make one with: python -c "import secrets; print(secrets.token_urlsafe(50))"'
# Django's startproject writes a key like this one (get_random_secret_key, prefixed).
DJANGO_DEVELOPMENT_KEY = "django-insecure-q3%v8c@1x!k$^zr2j#n0w&b5m7p(h)t-y_u+e=f4s6d9g*a"

PROBE = """
import json
from config import settings as s
print(json.dumps({
    "DEBUG": s.DEBUG,
    "ALLOWED_HOSTS": s.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": s.CSRF_TRUSTED_ORIGINS,
    "ENGINE": s.DATABASES["default"]["ENGINE"],
    "DB_NAME": str(s.DATABASES["default"]["NAME"]),
    "PREPARE_THRESHOLD": s.DATABASES["default"].get("OPTIONS", {}).get("prepare_threshold"),
    "CHANNEL_BACKEND": s.CHANNEL_LAYERS["default"]["BACKEND"],
    "CHANNEL_PREFIX": s.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix"),
    "HTTPS": s.HTTPS,
    "SECURE": [
        getattr(s, name, False)
        for name in ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_SSL_REDIRECT")
    ],
    "HSTS": getattr(s, "SECURE_HSTS_SECONDS", None),
    "LEADERBOARD": [s.LEADERBOARD_MIN_GAMES, s.LEADERBOARD_PUSH_INTERVAL],
    "DAILY_SECRET": s.DAILY_SECRET,
}))
"""


def run_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO_ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def load_settings(**env: str) -> dict:
    result = run_settings(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_defaults_are_local_development() -> None:
    s = load_settings()
    assert s["DEBUG"] is True
    assert s["ENGINE"] == "django.db.backends.sqlite3"
    assert s["DB_NAME"] == str(REPO_ROOT / "db.sqlite3")
    assert s["CHANNEL_BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert set(s["ALLOWED_HOSTS"]) >= {"localhost", "127.0.0.1", "[::1]", "testserver"}


@pytest.mark.parametrize("value", ["0", "false", "False", "no", "OFF"])
def test_debug_off_values(value: str) -> None:
    assert load_settings(**{**PRODUCTION, "DEBUG": value})["DEBUG"] is False


@pytest.mark.parametrize("value", ["1", "true", "yes", "on"])
def test_debug_on_values(value: str) -> None:
    assert load_settings(DEBUG=value)["DEBUG"] is True


@pytest.mark.parametrize("name", ["DEBUG", "HTTPS", "HSTS_PRELOAD"])
def test_an_on_off_setting_that_is_neither_stops_the_service_naming_it(name: str) -> None:
    production = PRODUCTION  # HTTPS and HSTS are read then
    result = run_settings(**{**production, name: "maybe"})
    assert result.returncode != 0
    assert f"{name} must be one of 1, true, yes, on, 0, false, no, off, not 'maybe'." in (
        result.stderr
    )


@pytest.mark.parametrize(
    ("name", "value", "what"),
    [
        ("HSTS_SECONDS", "a year", "a whole number"),
        ("LEADERBOARD_MIN_GAMES", "5.5", "a whole number"),
        ("LEADERBOARD_PUSH_INTERVAL", "fast", "a number"),
    ],
)
def test_a_number_setting_that_is_not_one_stops_the_service_naming_it(
    name: str, value: str, what: str
) -> None:
    env = {**PRODUCTION, name: value}
    result = run_settings(**env)
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {name} must be {what}, not {value!r}." in result.stderr


def test_number_settings_are_read_from_the_environment() -> None:
    s = load_settings(LEADERBOARD_PUSH_INTERVAL="0.5", LEADERBOARD_MIN_GAMES=" 7 ")
    assert s["LEADERBOARD"] == [7, 0.5]
    assert load_settings()["LEADERBOARD"] == [5, 0.25]


def test_database_url_selects_postgres() -> None:
    s = load_settings(DATABASE_URL="postgres://u:p@db.example:5432/patience")
    assert s["ENGINE"] == "django.db.backends.postgresql"
    assert s["DB_NAME"] == "patience"


def test_postgres_statements_are_prepared_unless_turned_off() -> None:
    url = "postgres://u:p@db.example:5432/patience"
    assert load_settings(DATABASE_URL=url)["PREPARE_THRESHOLD"] == 5
    assert load_settings(DATABASE_URL=url, DATABASE_PREPARE_THRESHOLD="0")["PREPARE_THRESHOLD"] == 0
    off = load_settings(DATABASE_URL=url, DATABASE_PREPARE_THRESHOLD="none")
    assert off["PREPARE_THRESHOLD"] is None


def test_a_prepare_threshold_that_is_not_a_number_stops_the_service() -> None:
    result = run_settings(
        DATABASE_URL="postgres://u:p@db.example:5432/patience", DATABASE_PREPARE_THRESHOLD="lots"
    )
    assert result.returncode != 0
    assert "DATABASE_PREPARE_THRESHOLD" in result.stderr


def test_redis_url_selects_redis_channel_layer() -> None:
    s = load_settings(REDIS_URL="redis://127.0.0.1:6379/0")
    assert s["CHANNEL_BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"


def test_services_on_different_redis_databases_publish_apart() -> None:
    """Redis pub/sub ignores the database number: the channels' prefix carries it."""
    prefixes = {
        load_settings(REDIS_URL=url)["CHANNEL_PREFIX"]
        for url in ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379/0", "redis://h:6379/?db=0")
    }
    other = load_settings(REDIS_URL="redis://127.0.0.1:6379/9")["CHANNEL_PREFIX"]
    assert len(prefixes) == 1
    assert other not in prefixes


def test_allowed_hosts_from_env() -> None:
    s = load_settings(ALLOWED_HOSTS="patience.example, www.patience.example,")
    assert s["ALLOWED_HOSTS"] == ["patience.example", "www.patience.example"]


def test_trusted_origins_from_env() -> None:
    assert load_settings()["CSRF_TRUSTED_ORIGINS"] == []
    s = load_settings(CSRF_TRUSTED_ORIGINS="https://patience.example, https://www.patience.example")
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://patience.example", "https://www.patience.example"]


def test_debug_off_refuses_default_secret_key() -> None:
    result = run_settings(DEBUG="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


WEAK_SECRETS = [
    ("a-real-secret", "shorter than 50 characters"),
    ("ab" * 40, "fewer than 5 different characters"),
    ("abcd" * 20, "fewer than 5 different characters"),
    (DJANGO_DEVELOPMENT_KEY, "a Django development key"),
    ("abcde" * 10, "too predictable"),  # a word repeated: 50 characters, 5 different ones
    ("patience-secret-" * 4, "too predictable"),
    ("0123456789" * 6, "too predictable"),
]


@pytest.mark.parametrize(("key", "why"), WEAK_SECRETS)
def test_debug_off_refuses_a_weak_secret_key_naming_it(key: str, why: str) -> None:
    result = run_settings(**{**PRODUCTION, "SECRET_KEY": key})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr and why in result.stderr
    assert MAKE_ONE in result.stderr
    assert key not in result.stderr  # a secret is never written to a log


@pytest.mark.parametrize(("key", "why"), WEAK_SECRETS[3:])
def test_debug_off_refuses_a_daily_secret_like_a_development_key_or_a_repeated_word(
    key: str, why: str
) -> None:
    result = run_settings(**{**PRODUCTION, "DAILY_SECRET": key})
    assert result.returncode != 0
    assert "DAILY_SECRET" in result.stderr and why in result.stderr
    assert MAKE_ONE in result.stderr
    assert key not in result.stderr


def test_debug_off_takes_random_keys_as_made_by_secrets_or_django() -> None:
    """What the message says to run, 50 random hexadecimal digits, and Django's own random key
    without startproject's prefix: each at least 50 characters of little pattern."""
    script = (
        "import secrets\n"
        "from django.core.management.utils import get_random_secret_key\n"
        "from config.settings import _weakness\n"
        "for _ in range(200):\n"
        "    for key in (secrets.token_urlsafe(50), secrets.token_hex(25),"
        " get_random_secret_key()):\n"
        "        assert _weakness(key) is None, _weakness(key)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert load_settings(**PRODUCTION)["DEBUG"] is False


def test_debug_off_requires_a_daily_secret_of_its_own() -> None:
    without = {k: v for k, v in PRODUCTION.items() if k != "DAILY_SECRET"}
    for env in (without, {**without, "DAILY_SECRET": ""}, {**without, "DAILY_SECRET": "  "}):
        result = run_settings(**env)
        assert result.returncode != 0
        assert "ImproperlyConfigured" in result.stderr and "DAILY_SECRET" in result.stderr
    assert load_settings(**PRODUCTION)["DAILY_SECRET"] == PRODUCTION["DAILY_SECRET"]


def test_debug_off_refuses_the_secret_key_as_the_daily_secret() -> None:
    result = run_settings(**{**PRODUCTION, "DAILY_SECRET": STRONG_KEY})
    assert result.returncode != 0
    assert "DAILY_SECRET" in result.stderr and "SECRET_KEY" in result.stderr


def test_in_development_the_daily_secret_may_come_from_the_secret_key() -> None:
    assert load_settings()["DAILY_SECRET"]
    assert load_settings(DAILY_SECRET="local-daily")["DAILY_SECRET"] == "local-daily"


def test_https_is_on_by_default_in_production_and_off_in_development() -> None:
    production = load_settings(**PRODUCTION)
    assert production["HTTPS"] is True
    assert production["SECURE"] == [True, True, True]
    assert production["HSTS"] == 365 * 24 * 3600
    development = load_settings()
    assert (development["HTTPS"], development["SECURE"]) == (False, [False, False, False])
    plain = load_settings(**PRODUCTION, HTTPS="0")
    assert (plain["HTTPS"], plain["SECURE"], plain["HSTS"]) == (False, [False] * 3, None)
    assert load_settings(**PRODUCTION, HSTS_SECONDS="600")["HSTS"] == 600


def test_the_production_configuration_passes_djangos_deployment_checks() -> None:
    clean = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    clean.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' (Playwright's) setting
    env = {**clean, **PRODUCTION}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
