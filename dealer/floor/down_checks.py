"""The floor checks its ledger as it goes: each dealer's down that ends sets off the quick
checks, off the request, and files the head they reached as a checkpoint.

Closing a table session (`table_sessions.close_down`) marks its write; once that write has
committed, a thread of the app's process runs what `ledger verify` runs without ``--full``: the
links written since the last *checked* checkpoint, recomputed under the key, and the rest of
the quick checks. It files the head it reached, checked when they found nothing. So through a
shift the checked checkpoints keep up with the floor, every few minutes on a busy one, and the
next check (a session's report, the shift ledger, the next down) starts from the last: each
covers only what is new. Found problems are filed as an unchecked checkpoint and put on the
audit trail in words, where the floor's supervisors read them, as well as on the next report.

One check at a time per process: a down that ends while one runs leaves what is new to the
next. ``LEDGER_CHECK_AT_DOWNS`` (``DEALER_CHECK_AT_DOWNS``, on unless ``0``) turns it off; the
tests turn it on only where they wait for it (`wait_for_checks`).
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

from dealer import settings
from dealer.ledger.verification import checkpoint_report, verify
from dealer.people.audit import record_audit
from dealer.transactions import snapshot, writing
from dealer.words.catalogue import say_n

#: The key of `Session.info` that asks for the checks once the write commits.
_ASKED = "check_ledger_after_commit"
#: Held by the check under way in this process.
_running = threading.Lock()
_threads: list[threading.Thread] = []
_log = logging.getLogger(__name__)


def check_after_commit(session: Session, why: str) -> None:
    """Run the quick checks once ``session``'s write has committed (nothing if it rolls back);
    ``why`` is the checkpoint's reason (``"session 12 closed"``)."""
    session.info[_ASKED] = why


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    why = session.info.pop(_ASKED, None)
    if why is None:
        return
    if not settings.of(session).config.get("LEDGER_CHECK_AT_DOWNS", True):
        return
    engine = settings.engine_of(session)
    thread = threading.Thread(target=_check, args=(engine, why), name="ledger-check", daemon=True)
    _threads[:] = [t for t in _threads if t.is_alive()] + [thread]
    thread.start()


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_ASKED, None)


def _check(engine: Engine, why: str) -> None:
    """The checks, on a session of their own on the app's database (``engine``)."""
    if not _running.acquire(blocking=False):
        return  # one is under way: what is new now is the next one's
    try:
        with Session(engine) as session:
            try:
                with snapshot(session) as read:
                    report = verify(read)
                    checkpoint_report(read, report, why)
                if not report.ok:
                    _tell_the_floor(session, len(report.problems), why)
            except Exception:  # a check that cannot run says so in the log, and stops nothing
                _log.exception("The ledger's checks at a dealer's down could not run")
    finally:
        _running.release()


def _tell_the_floor(session: Session, problems: int, why: str) -> None:
    """Put what the checks found on the audit trail, where a supervisor reads it."""
    with writing(session) as work:
        record_audit(
            work,
            "ledger_check_failed",
            words=say_n(
                "The ledger's checks after {why} found {n} problem: print the shift ledger "
                "or run ledger verify to see it.",
                "The ledger's checks after {why} found {n} problems: print the shift ledger "
                "or run ledger verify to see them.",
                problems,
                why=why,
            ),
            details={"problems": problems},
        )


def wait_for_checks(timeout: float = 60.0) -> bool:
    """Wait for the checks under way in this process to end (a test's); True if they did."""
    for thread in list(_threads):
        thread.join(timeout)
    return not any(t.is_alive() for t in _threads)
