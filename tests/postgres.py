"""The PostgreSQL server the suite makes its throwaway databases on.

A test gets a database as its template left it: a copy (``CREATE DATABASE ... TEMPLATE``) the
first time, and after that, mostly, a database an earlier test of this worker used, put back
as the template holds it. Dropping a database makes PostgreSQL 15 checkpoint (every DROP
DATABASE forces one), and on a machine busy with the suite each took about 0.6 s: 194 s of
the workers' time in a full run. Putting one back costs a few statements instead (about
20 ms): its rows deleted and the template's own put in again (`COPY`), its sequences set
as the template's. Only a database whose shape is still the template's is put back; one a
test changed (a trigger dropped, a migration run down, a setting left) is dropped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from psycopg import pq, sql
from psycopg.conninfo import make_conninfo
from sqlalchemy.engine import make_url

__all__ = ["InFlight", "PostgresServer"]

#: What a database is shaped like, beyond its rows: its schemas' relations, its columns in
#: their order (COPY reads and writes by position), indexes, sequences, triggers (and whether
#: each is on), rules, policies, functions, constraints and its own settings. Two databases
#: that agree on it differ only in their rows and their sequences' values.
SHAPE = """
SELECT md5(string_agg(part, ',' ORDER BY part)) FROM (
    SELECT 'r ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' '
        || c.relpersistence::text || ' ' || c.relrowsecurity::text FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
    UNION ALL
    SELECT 'a ' || a.attrelid::regclass || ' ' || a.attnum || ' ' || a.attname || ' '
        || a.atttypid::regtype::text || ' ' || a.attnotnull::text || ' '
        || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT 'i ' || pg_get_indexdef(i.indexrelid) FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'q ' || sequencename || ' ' || increment_by || ' ' || min_value || ' '
        || max_value || ' ' || cycle::text FROM pg_sequences WHERE schemaname = 'public'
    UNION ALL
    SELECT 't ' || tgrelid::regclass || ' ' || tgname || ' ' || tgenabled::text
    FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'w ' || ev_class::regclass || ' ' || rulename FROM pg_rewrite
    WHERE ev_class IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
        AND rulename <> '_RETURN'
    UNION ALL
    SELECT 'o ' || polrelid::regclass || ' ' || polname FROM pg_policy
    UNION ALL
    SELECT 'f ' || p.proname || ' ' || md5(p.prosrc) FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
    UNION ALL
    SELECT 'k ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 's ' || array_to_string(setconfig, ';') FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
    UNION ALL
    SELECT 'd ' || datallowconn::text || ' ' || datconnlimit::text FROM pg_database
    WHERE datname = current_database()
) AS shape(part)
"""
TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
SEQUENCES = """
SELECT sequencename, coalesce(last_value, start_value), last_value IS NOT NULL
FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename
"""
OTHERS_OUT = """
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
WHERE datname = current_database() AND pid <> pg_backend_pid()
"""


@dataclass(frozen=True)
class Template:
    """What a template holds, read once: its shape, its rows and its sequences."""

    shape: str
    tables: tuple[str, ...]
    rows: tuple[tuple[str, bytes], ...]  # each table with rows, as COPY writes them
    sequences: tuple[tuple[str, int, bool], ...]  # name, value, whether it was called

    @classmethod
    def read(cls, conn: psycopg.Connection) -> Template:
        tables = tuple(name for (name,) in conn.execute(TABLES))
        rows = []
        for table in tables:
            data = bytearray()
            with conn.cursor().copy(
                sql.SQL("COPY {} TO STDOUT").format(sql.Identifier(table))
            ) as copy:
                for block in copy:
                    data += block
            if data:
                rows.append((table, bytes(data)))
        sequences = tuple(conn.execute(SEQUENCES).fetchall())
        (shape,) = conn.execute(SHAPE).fetchone() or ("",)
        return cls(shape, tables, tuple(rows), sequences)

    def put_back(self, conn: psycopg.Connection) -> None:
        """Empty every table of the database on ``conn`` and give it this template's rows
        and sequences, in one transaction. Its guards (the append-only triggers, the foreign
        keys) stand down for it: ``session_replication_role`` is the superuser's switch for
        a restore. Rows are deleted, not truncated: a test leaves a few rows, and TRUNCATE
        would make every table's and index's files anew."""
        emptied = [sql.SQL("DELETE FROM {}").format(sql.Identifier(t)) for t in self.tables]
        values = sql.SQL(", ").join(
            sql.SQL("setval({}, {}, {})").format(
                sql.Literal(name), sql.Literal(value), sql.Literal(called)
            )
            for name, value, called in self.sequences
        )
        with conn.transaction():
            conn.execute(
                sql.SQL("; ").join(
                    [sql.SQL("SET LOCAL session_replication_role = replica"), *emptied]
                )
            )
            for table, data in self.rows:
                into = sql.SQL("COPY {} FROM STDIN").format(sql.Identifier(table))
                with conn.cursor().copy(into) as copy:
                    copy.write(data)
            if self.sequences:
                conn.execute(sql.SQL("SELECT {}").format(values))


class InFlight:
    """One connection that carries a statement the server works on while the tests go on:
    sent now, its outcome waited for the next time the connection is needed. libpq's own
    asynchronous calls, so no second thread runs in a worker."""

    def __init__(self, conninfo: str) -> None:
        self.conn = pq.PGconn.connect(conninfo.encode())
        if self.conn.status != pq.ConnStatus.OK:
            raise psycopg.OperationalError(self.conn.get_error_message())
        self.outcome: tuple[str, str] | None = None
        self.sent = False

    def send(self, statement: str, outcome: tuple[str, str] | None = None) -> None:
        """Send ``statement`` once the one before it is done; that one's failure is raised
        after ``statement`` is on its way, so one failure does not hold up the next."""
        try:
            self.wait()
        finally:
            self.conn.send_query(statement.encode())
            self.sent, self.outcome = True, outcome

    def wait(self) -> tuple[str, str] | None:
        """The outcome of the statement in flight (None when none was), once it is done."""
        if not self.sent:
            return None
        errors = []
        while (result := self.conn.get_result()) is not None:
            if result.status != pq.ExecStatus.COMMAND_OK:
                errors.append(result.get_error_message().decode())
        outcome, self.sent, self.outcome = self.outcome, False, None
        if errors:
            raise RuntimeError("; ".join(errors))
        return outcome

    def close(self) -> None:
        self.wait()
        self.conn.finish()


class PostgresServer:
    """This worker's databases on the server: a migrated template, copies of it (and of any
    template made from it), and the copies given back, put back as their template holds them.

    A copy is made out of the tests' way: as a test takes one, the next is sent to be made
    while the test runs. A copy that cannot be put back is dropped behind the test.
    """

    def __init__(self, url: str, migrate: Callable[[str], None]) -> None:
        self.url = make_url(url)
        self.prefix = f"dealer_test_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        self.conninfo = make_conninfo(
            host=self.url.host,
            port=self.url.port or 5432,
            user=self.url.username,
            password=self.url.password,
            dbname=self.url.database or "postgres",
            connect_timeout=3,
        )
        self.admin = psycopg.connect(self.conninfo, autocommit=True)
        self.count = 0
        self.template = f"{self.prefix}_template"
        self.templates = [self.template]
        try:
            self.execute(f'CREATE DATABASE "{self.template}"')
            migrate(self.uri(self.template))
            self.creating = InFlight(self.conninfo)
            self.dropping = InFlight(self.conninfo)
        except BaseException:
            self.admin.close()  # not left for the garbage collector to find open
            raise
        self.ready: dict[str, str] = {}  # a template -> its copy made ahead
        self.given_back: dict[str, list[str]] = {}  # a template -> copies put back as it is
        self.copied_from: dict[str, str] = {}  # a copy -> its template
        self.held: dict[str, Template] = {}  # a template -> what it holds
        self.put_back = self.dropped = 0

    def uri(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def execute(self, statement: str) -> None:
        self.admin.execute(statement)  # type: ignore[arg-type]

    def new_template(self, base: str, label: str) -> str:
        """A template of its own made from ``base`` (for the tests to fill before it is
        copied), dropped with the others at the end."""
        name = f"{self.prefix}_{label}_{len(self.templates)}"
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{base}"')
        self.templates.append(name)
        return name

    def _settle(self) -> None:
        done = self.creating.wait()
        if done is not None:
            template, name = done
            self.ready[template] = name

    def _copy(self, template: str) -> None:
        self.count += 1
        name = f"{self.prefix}_{self.count}"
        self.copied_from[name] = template
        self.creating.send(f'CREATE DATABASE "{name}" TEMPLATE "{template}"', (template, name))

    def new_database(self, template: str | None = None) -> str:
        """A database as ``template`` (the migrated one by default) holds it: one given back,
        else a copy made ahead where it could be."""
        template = template or self.template
        if self.given_back.get(template):
            return self.given_back[template].pop()
        self._settle()
        if template not in self.ready:
            self._copy(template)
            self._settle()
        name = self.ready.pop(template)
        self._copy(template)  # the next test's, made while this one runs
        return name

    def give_back(self, name: str) -> None:
        """A test is done with ``name``: put back as its template holds it, for the next test,
        or dropped if the test changed its shape (or it cannot be reached)."""
        template = self.copied_from[name]
        try:
            with psycopg.connect(self.conninfo_of(name), autocommit=True) as conn:
                conn.execute(OTHERS_OUT)  # what a test left connected (a cut, a leak)
                held = self._held(template)
                (shape,) = conn.execute(SHAPE).fetchone() or ("",)
                if shape == held.shape:
                    held.put_back(conn)
                    self.given_back.setdefault(template, []).append(name)
                    self.put_back += 1
                    return
        except psycopg.OperationalError:
            pass  # connections refused, say: dropped below
        self.drop(name)
        self._settle()
        if template not in self.ready:  # the next test's, made while it is on its way
            self._copy(template)

    def drop(self, name: str) -> None:
        self.dropped += 1
        self.copied_from.pop(name, None)
        self.dropping.send(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def conninfo_of(self, name: str) -> str:
        return make_conninfo(self.conninfo, dbname=name)

    def _held(self, template: str) -> Template:
        """What ``template`` holds, read the first time it is asked (no copy of it is being
        made meanwhile: a template being read cannot be copied)."""
        if template not in self.held:
            self._settle()
            with psycopg.connect(self.conninfo_of(template), autocommit=True) as conn:
                self.held[template] = Template.read(conn)
        return self.held[template]

    def close(self) -> None:
        try:
            self._settle()
            self.dropping.close()
            self.creating.close()
            failed = []  # every copy (given back, made ahead, still out) and every template
            for name in [*self.copied_from, *self.templates]:
                try:
                    self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                except psycopg.Error as exc:
                    failed.append(f"{name}: {exc}")
            if failed:
                raise RuntimeError("; ".join(failed))
        finally:
            self.admin.close()
