"""Configuration classes, read from the environment."""

import os
import secrets
import tempfile
import uuid
from collections.abc import Mapping, MutableMapping
from datetime import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sqlalchemy.engine import URL

from dealer.words.catalogue import say_n


def instance_secret(instance_path: str, name: str) -> str:
    """Return the secret kept in the instance folder's file ``name``, creating it on first use.

    The file is created readable by its owner only (0600) before anything is written to it.
    Keeping it on disk means a restart keeps sign-ins (the secret key) and the ledger's key.
    It takes its name whole, the key written: the key goes into a file of its own first, which
    is then linked to the name (refused if the name is taken). So processes starting at once
    (gunicorn's workers, the tests' workers) all read the one key the first of them wrote,
    never a file still empty.
    """
    key_file = Path(instance_path) / name
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_hex(32)
    fd, written = tempfile.mkstemp(dir=instance_path, prefix=f".{name}-")  # 0600
    try:
        with os.fdopen(fd, "w") as out:
            out.write(key + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(written, key_file)
        except FileExistsError:  # another process named its key first: use theirs
            return key_file.read_text().strip()
    finally:
        os.unlink(written)
    return key


def instance_secret_key(instance_path: str) -> str:
    """The Flask secret key kept in the instance folder (see `instance_secret`)."""
    return instance_secret(instance_path, "secret_key")


#: Keys seen in tutorials, examples and this project's own tests: never a production key.
WEAK_KEYS = frozenset(
    {
        "changeme",
        "change-me",
        "change_me",
        "secret",
        "secretkey",
        "secret-key",
        "secret_key",
        "dev",
        "development",
        "test",
        "testing",
        "key",
        "default",
        "password",
        "flask",
        "dealer",
        "bench",
        "simulation",
        "your-secret-key",
        "you-will-never-guess",
    }
)
#: The shortest SECRET_KEY taken outside debug and testing, in bytes.
SHORTEST_KEY = 32
HOW_TO_SET_A_KEY = (
    "Set SECRET_KEY to a long random value, e.g. "
    "SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(32))'), "
    "the same on every app server; or leave it unset on a single machine and the app keeps "
    "a random one in the instance folder (instance/secret_key)."
)


class WeakSecretKey(RuntimeError):
    """The app refuses to start with a guessable SECRET_KEY: whoever knows it can sign a
    cookie of their own."""


def check_secret_key(key: object) -> None:
    """Refuse a SECRET_KEY shorter than `SHORTEST_KEY` bytes or on the list of weak ones."""
    if not isinstance(key, str | bytes) or not key:
        raise WeakSecretKey(f"No SECRET_KEY is set. {HOW_TO_SET_A_KEY}")
    raw = key.encode() if isinstance(key, str) else key
    if raw.strip().lower().decode(errors="replace") in WEAK_KEYS:
        raise WeakSecretKey(f"SECRET_KEY is a well-known value. {HOW_TO_SET_A_KEY}")
    if len(raw) < SHORTEST_KEY:
        raise WeakSecretKey(
            f"SECRET_KEY is {len(raw)} bytes; at least {SHORTEST_KEY} are needed. "
            f"{HOW_TO_SET_A_KEY}"
        )


#: The shortest LEDGER_KEY taken, in characters, and the fewest different characters in it:
#: the key of the keyed chain and the seed of the checkpoints' signatures must not be guessed.
SHORTEST_LEDGER_KEY = 32
FEWEST_LEDGER_KEY_CHARACTERS = 10
HOW_TO_SET_A_LEDGER_KEY = (
    "Set LEDGER_KEY to a long random value, e.g. "
    "LEDGER_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(32))'), kept apart from "
    "the database and backed up apart from it; or leave it unset and the app keeps a random "
    "one in the instance folder (instance/ledger_key)."
)
#: The ledger key of the test configuration: strong enough to be taken, known to everyone.
TESTING_LEDGER_KEY = "testing-ledger-key-0123456789abcdef-never-for-a-floor"


class WeakLedgerKey(RuntimeError):
    """The app refuses to start with a guessable LEDGER_KEY: whoever guesses it can re-sign a
    changed history and forge checkpoints."""


def check_ledger_key(key: object) -> None:
    """Refuse a LEDGER_KEY under `SHORTEST_LEDGER_KEY` characters, with fewer than
    `FEWEST_LEDGER_KEY_CHARACTERS` different characters, or on the list of weak ones."""
    if not isinstance(key, str) or not key.strip():
        raise WeakLedgerKey(f"No LEDGER_KEY is set. {HOW_TO_SET_A_LEDGER_KEY}")
    if key.strip().lower() in WEAK_KEYS:
        raise WeakLedgerKey(f"LEDGER_KEY is a well-known value. {HOW_TO_SET_A_LEDGER_KEY}")
    if len(key) < SHORTEST_LEDGER_KEY or len(set(key)) < FEWEST_LEDGER_KEY_CHARACTERS:
        raise WeakLedgerKey(
            f"LEDGER_KEY is too weak: a ledger key is at least {SHORTEST_LEDGER_KEY} characters "
            f"with at least {FEWEST_LEDGER_KEY_CHARACTERS} different ones, and this one has "
            + say_n("{n} character", "{n} characters", len(key))
            + f", {len(set(key))} different. {HOW_TO_SET_A_LEDGER_KEY}"
        )


class BadSetting(RuntimeError):
    """A setting the app cannot work with: it refuses to start, and says which and why."""


#: The paper sizes a document prints on, by the names a setting may use (any case).
PAPER = {"letter": "letter", "a4": "A4"}
#: The longest currency sign a document prints before a figure.
LONGEST_CURRENCY = 5


def paper_size(value: object) -> str:
    """``letter`` or ``A4`` for a REPORT_PAGE_SIZE given in any case; BadSetting otherwise."""
    found = PAPER.get(str(value).strip().lower())
    if found is None:
        raise BadSetting(f"REPORT_PAGE_SIZE is {value!r}: set it to letter or A4 (any case).")
    return found


def floor_zone(value: object) -> str:
    """The IANA zone named by DEALER_TIMEZONE, its case mended; BadSetting for no such zone."""
    name = str(value).strip()
    try:
        ZoneInfo(name)
        return name
    except (ZoneInfoNotFoundError, ValueError):
        pass
    mended = {z.casefold(): z for z in available_timezones()}.get(name.casefold())
    if mended is None:
        raise BadSetting(
            f"DEALER_TIMEZONE is {value!r}, which is no time zone: set an IANA name such as "
            "America/Los_Angeles, or UTC."
        )
    return mended


def check_settings(config: MutableMapping[str, Any]) -> None:
    """Check, at start, the settings every document and the floor's clock read, and set them
    as the app uses them (``a4`` is ``A4``): a bad one stops the app with a sentence, rather
    than making every document fail later."""
    config["REPORT_PAGE_SIZE"] = paper_size(config.get("REPORT_PAGE_SIZE", "letter"))
    currency = str(config.get("REPORT_CURRENCY", "$")).strip()
    if not currency or len(currency) > LONGEST_CURRENCY or not currency.isprintable():
        raise BadSetting(
            f"REPORT_CURRENCY is {config.get('REPORT_CURRENCY')!r}: set a sign of 1 to "
            f"{LONGEST_CURRENCY} characters, such as $ or EUR."
        )
    config["REPORT_CURRENCY"] = currency
    config["TIMEZONE"] = floor_zone(config.get("TIMEZONE", "UTC"))
    starts = str(config.get("SHIFT_STARTS", "06:00"))
    try:
        for part in starts.split(","):
            if part.strip():
                time.fromisoformat(part.strip())
    except ValueError:
        raise BadSetting(
            f"DEALER_SHIFT_STARTS is {starts!r}: set times of day such as 06:00,14:00,22:00."
        ) from None


class KeyBesideDatabase(RuntimeError):
    """Production serving refuses to start while the ledger key sits in the database's folder:
    whoever can change the database file could read the key and re-sign a changed history."""


def key_beside_database(config: Mapping[str, Any]) -> bool:
    """Whether the ledger key is kept in a file in the same folder as the SQLite database
    (``DATABASE_FILE``, the file the engine opens: `sqlite_file`)."""
    key_file = config.get("LEDGER_KEY_FILE")
    database = config.get("DATABASE_FILE")
    if not key_file or not database:
        return False
    return Path(database).resolve().parent == Path(key_file).resolve().parent


def check_key_apart(config: Mapping[str, Any]) -> None:
    """Refuse to serve a floor while the ledger key sits beside the database, unless the
    operator said so on purpose (``DEALER_KEY_BESIDE_DATABASE=1``)."""
    if key_beside_database(config) and not config.get("KEY_BESIDE_DATABASE_ALLOWED"):
        raise KeyBesideDatabase(
            f"The ledger key is kept in {config['LEDGER_KEY_FILE']}, in the same folder as the "
            "database: whoever can change the database file can read the key there and re-sign "
            "a changed history, so the keyed chain proves nothing. Set LEDGER_KEY in the "
            "server's environment (at least 32 characters, at least 10 different ones; "
            "e.g. python3 -c 'import secrets; print(secrets.token_hex(32))'), kept apart from "
            "the database, or set DEALER_KEY_BESIDE_DATABASE=1 to serve with it there on "
            "purpose."
        )


def make_instance_folder(path: str) -> None:
    """The instance folder, created owner-only (0700): it holds the keys and, by default,
    the SQLite file with the PIN hashes. An existing folder is left as its owner set it."""
    os.makedirs(path, mode=0o700, exist_ok=True)


def sqlite_file(url: URL) -> str | None:
    """The file an SQLite engine made from ``url`` opens (None: not SQLite, or in memory),
    read from the engine's own URL: Flask-SQLAlchemy has made a relative path its instance
    folder's, whatever the spelling (``sqlite:``, ``sqlite+pysqlite:``, a ``file:`` URI)."""
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if not url.query.get("uri"):
        return database
    if url.query.get("mode") == "memory":
        return None
    return database.removeprefix("file:") or None


def create_sqlite_file(path: str | None) -> None:
    """Create a new SQLite database file (`sqlite_file`) readable by its owner only (0600)
    before SQLite does (it would use the umask, often 0644): it holds the PIN hashes. SQLite
    gives the -wal and -shm files the database file's permissions."""
    if path is None:
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except (FileExistsError, FileNotFoundError, PermissionError):
        return  # there already, or SQLite will say what is wrong with the path


def sqlalchemy_uri(database_url: str) -> str:
    """Send plain PostgreSQL URLs to psycopg 3, the driver installed, not to psycopg2."""
    for scheme in ("postgres://", "postgresql://"):
        if database_url.startswith(scheme):
            return "postgresql+psycopg://" + database_url.removeprefix(scheme)
    return database_url


class Config:
    """Settings for a running app: `SECRET_KEY` and `DATABASE_URL` from the environment."""

    # The API's session cookie: never sent by a cross-site POST, never read by scripts.
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_HTTPONLY = True
    # Bodies are small JSON objects; anything larger is refused before it is read.
    MAX_CONTENT_LENGTH = 64 * 1024
    # werkzeug's scrypt: slow and salted, so a stolen table of PINs stays hard to read.
    PIN_HASH_METHOD = "scrypt"
    # Printed reports: the currency sign and the paper (letter or A4).
    REPORT_CURRENCY = os.environ.get("REPORT_CURRENCY", "$")
    REPORT_PAGE_SIZE = os.environ.get("REPORT_PAGE_SIZE", "letter")
    # A form's CSRF token lives as long as the sign-in it belongs to: a hand can stay
    # on screen longer than Flask-WTF's default hour, and signing out ends the session.
    WTF_CSRF_TIME_LIMIT = None

    def __init__(self, instance_path: str) -> None:
        self.SECRET_KEY = self.secret_key(instance_path)
        self.SQLALCHEMY_DATABASE_URI = self.database_uri(instance_path)
        #: A pooled connection is tried before it is used: one the database closed (a restart,
        #: a backend ended) is replaced, not handed to a request that would fail on it.
        self.SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
        #: The tablet signs its dealer out after this many seconds without a touch.
        self.IDLE_SECONDS = int(os.environ.get("DEALER_IDLE_SECONDS", "900"))
        #: Served over HTTPS only (DEALER_SECURE_COOKIES=1): the cookie is sent only over
        #: HTTPS (Secure) and browsers are told to come back only over HTTPS (HSTS).
        secure = os.environ.get("DEALER_SECURE_COOKIES", "0").strip().lower()
        self.SECURE_COOKIES = secure in ("1", "true", "yes", "on")
        self.SESSION_COOKIE_SECURE = self.SECURE_COOKIES
        self.REMEMBER_COOKIE_SECURE = self.SECURE_COOKIES
        #: A sign-in ends this many hours after it began (a shift), idle or not.
        self.SIGN_IN_HOURS = float(os.environ.get("DEALER_SIGN_IN_HOURS", "12"))
        #: Sign-in tries (and supervisors' approvals) taken from one client address a minute.
        self.SIGN_IN_ATTEMPTS_PER_MINUTE = int(
            os.environ.get("DEALER_SIGN_IN_ATTEMPTS_PER_MINUTE", "60")
        )
        #: How many proxies in front of the app to believe X-Forwarded-For from (0: none).
        self.PROXY_HOPS = int(os.environ.get("DEALER_PROXY_HOPS", "0"))
        #: The floor's clock (an IANA zone), the one setting for every time a person reads or
        #: types: screens, documents, searches, the shift's start (`dealer.clock`).
        #: REPORT_TIMEZONE, its old name for the documents, is read when it is not set.
        self.TIMEZONE = (
            os.environ.get("DEALER_TIMEZONE") or os.environ.get("REPORT_TIMEZONE") or "UTC"
        )
        #: The language every sentence is said in (`dealer.words.catalogue`): English unless a
        #: catalogue for DEALER_LANGUAGE is installed, and English for a message it lacks.
        self.LANGUAGE = os.environ.get("DEALER_LANGUAGE", "en")
        #: When shifts start on the floor's clock; the floor shows the drop since the last one.
        self.SHIFT_STARTS = os.environ.get("DEALER_SHIFT_STARTS", "06:00,14:00,22:00")
        #: The key of the ledger's keyed chain (HMAC) and, derived from it, of the checkpoints'
        #: signatures (Ed25519). Never in the database: whoever edits rows cannot rehash them.
        self.LEDGER_KEY = self.ledger_key(instance_path)
        #: The file the ledger key is kept in (None: it comes from the environment).
        self.LEDGER_KEY_FILE = self.ledger_key_file(instance_path)
        #: The operator serves with the key file beside the SQLite database on purpose.
        beside = os.environ.get("DEALER_KEY_BESIDE_DATABASE", "0").strip().lower()
        self.KEY_BESIDE_DATABASE_ALLOWED = beside in ("1", "true", "yes", "on")
        #: Signed checkpoints of the chain's head are appended here, outside the database.
        self.CHECKPOINT_FILE = self.checkpoint_file(instance_path)
        #: Where long documents built in the background keep their state and PDF, read by
        #: every worker of the app (`dealer.reports.builds`).
        self.DOCUMENT_BUILDS_DIR = self.document_builds_dir(instance_path)
        #: The most open screens' asks one process holds at once (each holds a thread:
        #: gunicorn.conf.py gives each worker this many threads more than it records with).
        self.LIVE_HELD = int(os.environ.get("DEALER_LIVE_HELD", "200"))
        #: Each dealer's down that ends sets off the ledger's quick checks in the background
        #: (`dealer.floor.down_checks`); DEALER_CHECK_AT_DOWNS=0 turns them off.
        at_downs = os.environ.get("DEALER_CHECK_AT_DOWNS", "1").strip().lower()
        self.LEDGER_CHECK_AT_DOWNS = at_downs not in ("0", "false", "no", "off")

    def secret_key(self, instance_path: str) -> str:
        return os.environ.get("SECRET_KEY") or instance_secret_key(instance_path)

    def ledger_key(self, instance_path: str) -> str:
        return os.environ.get("LEDGER_KEY") or instance_secret(instance_path, "ledger_key")

    def ledger_key_file(self, instance_path: str) -> str | None:
        return None if os.environ.get("LEDGER_KEY") else os.path.join(instance_path, "ledger_key")

    def checkpoint_file(self, instance_path: str) -> str:
        default = os.path.join(instance_path, "checkpoints.jsonl")
        return os.environ.get("CHECKPOINT_FILE") or default

    def document_builds_dir(self, instance_path: str) -> str:
        return os.environ.get("DEALER_BUILDS_DIR") or os.path.join(instance_path, "builds")

    def database_uri(self, instance_path: str) -> str:
        default = "sqlite:///" + os.path.join(instance_path, "dealer.sqlite3")
        return sqlalchemy_uri(os.environ.get("DATABASE_URL") or default)


class TestingConfig(Config):
    """Settings for tests: never the environment's database or the instance's secret."""

    TESTING = True

    def __init__(self, instance_path: str) -> None:
        super().__init__(instance_path)
        # A test's database is dropped when it ends: checks left running would read a database
        # that is going. The tests that wait for them turn them on (`down_checks`).
        self.LEDGER_CHECK_AT_DOWNS = False

    WTF_CSRF_ENABLED = False
    # Still scrypt, with a small work factor, so the suite signs in quickly.
    PIN_HASH_METHOD = "scrypt:1024:8:1"

    def secret_key(self, instance_path: str) -> str:
        return "testing"

    def ledger_key(self, instance_path: str) -> str:
        return TESTING_LEDGER_KEY

    def ledger_key_file(self, instance_path: str) -> str | None:
        return None

    def checkpoint_file(self, instance_path: str) -> str:
        # Each app its own file (made only when a checkpoint is written): a test's checkpoints
        # must never be held against another test's database.
        return os.path.join(tempfile.gettempdir(), f"dealer-checkpoints-{uuid.uuid4().hex}.jsonl")

    def document_builds_dir(self, instance_path: str) -> str:
        # Each app its own folder (made only when a document is built in the background).
        return os.path.join(tempfile.gettempdir(), f"dealer-builds-{uuid.uuid4().hex}")

    def database_uri(self, instance_path: str) -> str:
        return "sqlite://"
