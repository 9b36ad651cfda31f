"""gunicorn's settings for serving a floor: `make serve`, or `gunicorn` run from this folder.

Every setting can be changed from the environment without editing this file:
HOST and PORT (where it listens), WEB_CONCURRENCY (worker processes, on PostgreSQL; SQLite
always has one), DEALER_THREADS (threads per worker), DEALER_TIMEOUT (seconds). See the
README's "Running a floor".
"""

import gc
import os

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

#: The app factory for serving a floor; the database, secret and the rest come from the
#: environment (config.py). It refuses to start while the ledger key sits in the SQLite
#: database's folder (see the README's "Running a floor").
wsgi_app = "dealer:serve_app()"

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"

# Workers are processes: the replay through the rules engine, the shaping of the JSON and the
# templates are Python, which runs on one core per process, so on PostgreSQL one worker a core
# and one more to work while another waits for a lock. Threads cover the waiting: every write
# queues for the one writers' lock (dealer/transactions.py) and every request waits on the
# database, so a few threads per worker keep a core busy meanwhile. Each thread holds at most
# one database connection: workers x threads is what one server asks of PostgreSQL.
# On SQLite, always one worker (WEB_CONCURRENCY is not read): its writers queue fairly on a
# lock in the process, where writers of several processes would meet only at SQLite's lock,
# whose waiters poll with sleeps of up to 100 ms (measured: a p99 of seconds with three
# workers at 200 tables; see bench/floor.py), and a write kept waiting past its 30 s is refused.
# SQLite whatever the URL's spelling (sqlite:, sqlite+pysqlite:, ...), as SQLAlchemy reads it.
_cores = os.cpu_count() or 1


def _on_sqlite(database_url: str) -> bool:
    try:
        return make_url(database_url).get_backend_name() == "sqlite"
    except ArgumentError:  # not a URL: the app says what is wrong with it as it starts
        return False


_sqlite = _on_sqlite(os.environ.get("DATABASE_URL") or "sqlite://")
workers = 1 if _sqlite else int(os.environ.get("WEB_CONCURRENCY", _cores + 1))
# Threads that record and draw screens, and on top of them one per open screen's held ask
# (live screens, dealer/screens/live.py): an ask waits in its thread, costing no CPU, until
# what the screen shows changes. The app holds at most DEALER_LIVE_HELD asks per worker, so
# the first threads always stay free to record events. Python makes a pool's threads only
# as they are needed.
_recording = int(os.environ.get("DEALER_THREADS", "8" if _sqlite else "4"))
_held = int(os.environ.get("DEALER_LIVE_HELD", "200" if _sqlite else "100"))
os.environ["DEALER_LIVE_HELD"] = str(_held)  # the app reads its cap from here
threads = _recording + _held
worker_class = "gthread"

# Build the app once in the master, before forking: the instance's secret key file is then
# written once, not raced by every worker on a first start. create_app opens no connection,
# so no database socket is shared across the fork.
preload_app = True

# A request is a few milliseconds; a worker silent for this long is hung and is replaced.
# It is above SQLite's busy timeout (30 s, transactions.py), so a writer waiting its turn is
# never killed for waiting.
timeout = int(os.environ.get("DEALER_TIMEOUT", "60"))
graceful_timeout = 30
# A request line up to gunicorn's most: the app refuses a longer one than it takes itself, in its
# own shape (dealer/web/request_line.py), where gunicorn's refusal is a page the API's
# document does not describe.
limit_request_line = 8190
# Behind a reverse proxy, connections are reused: keep them a little longer than the default.
keepalive = 5
# A worker is replaced after this many requests (with jitter, so not all at once): a guard
# against slow growth of memory over a long shift.
max_requests = 20_000
max_requests_jitter = 2_000

# One line per request on stdout, with how long it took in milliseconds (the last field).
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s "%(a)s" %(M)sms'

# No runtime control socket (gunicornc): one fixed path per user would collide between several
# app servers, or a test's, on one machine; signals (HUP, TERM) still manage the master.
control_socket_disable = True


def pre_fork(server, worker):
    """Before each worker is forked from the loaded app (``preload_app``): what the app made as
    it loaded lives as long as the worker, so it is set apart from Python's collector
    (``gc.freeze``). A full pass then walks what the worker made since, not the app's some
    200,000 objects as well: passes of 160-250 ms with every thread of the worker stopped, the
    floor's slowest answers, became 50-90 ms (`bench.floor`, bench/README.md). The pages of
    those objects also stay shared between the workers instead of copied as a pass touches
    them."""
    gc.freeze()
