"""A dealer's authority check, as every request of theirs makes it: at their own session's table,
and at a table they hold by assignment (read from the keyed chain's versions of the
assignments, each one's link recomputed under the key: `dealer.floor.assignments`).

bench/api.py signs in a supervisor, who acts everywhere without the check; this times the check
itself, on a migrated SQLite file and, when one answers at `DEALER_TEST_POSTGRES`, a throwaway
PostgreSQL database. The dealer holds one table by session, and was assigned to ``--tables``
more (8) and taken off half of them: an assignment history of 12 rows. Prints wall and CPU
milliseconds per check, and the statements each costs.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bench.room.server import migrate, postgres_database
from dealer import create_app
from dealer.extensions import db
from dealer.floor.assignments import assign, unassign
from dealer.floor.authority import authorise
from dealer.floor.downs import open_down
from dealer.floor.tables import create_table
from dealer.models import User
from dealer.people.users import add_user
from dealer.transactions import writing


def timed(check: Callable[[], None], calls: int) -> tuple[float, float]:
    """Wall and CPU milliseconds per call of ``check``."""
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        check()
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return wall / calls * 1000, used / calls * 1000


def floor_of(assigned: int) -> tuple[int, int, int]:
    """Dee's id, her session's table and a table she holds by assignment."""
    with writing(db.session()) as session:
        sam = add_user(session, "Sam", "supervisor", "2222")
        dee = add_user(session, "Dee", "dealer", "1111")
        tables = [
            create_table(session, f"T{n}", "classic", {}, None, 100, sam)
            for n in range(assigned + 1)
        ]
        for table in tables[1:]:
            assign(session, table, "Dee", sam)
        for table in tables[1 : assigned // 2 + 1]:
            unassign(session, table, dee.id, sam)
        open_down(session, tables[0], dee.id)
        return dee.id, tables[0].id, tables[-1].id


def measure(uri: str, kind: str, calls: int, tables: int) -> dict[str, float]:
    migrate(uri)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        dee_id, own, assigned = floor_of(tables)
        session = db.session()
        dee = session.get_one(User, dee_id)
        statements: list[str] = []
        figures: dict[str, float] = {}

        def note(*args: Any) -> None:
            statements.append(args[2])

        for name, table in (("own_session", own), ("assigned", assigned)):

            def check(table: int = table) -> None:
                authorise(session, dee, table, "record")

            check()
            event.listen(db.engine, "before_cursor_execute", note)
            check()
            event.remove(db.engine, "before_cursor_execute", note)
            ms, cpu_ms = timed(check, calls)
            print(
                f"name=authority database={kind} table={name} tables={tables} calls={calls} "
                f"ms={ms:.3f} cpu_ms={cpu_ms:.3f} statements={len(statements)}",
                flush=True,
            )
            figures[f"{kind}_{name}_cpu_ms"] = cpu_ms
            statements.clear()
        session.rollback()
        db.session.remove()
        for bound in db.engines.values():
            bound.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=8, help="tables assigned (half ended)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        uri = f"sqlite:///{Path(folder) / 'authority.sqlite3'}"
        figures |= measure(uri, "sqlite", args.calls, args.tables)
    with postgres_database() as server:
        if server is not None:
            figures |= measure(server, "postgresql", args.calls, args.tables)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"name=authority_cpu tables={args.tables} "
        + " ".join(f"{key}={value:.3f}" for key, value in figures.items())
    )


if __name__ == "__main__":
    main()
