"""What the worker makes once for every app the tests make, instead of once for each app.

The suite makes an app for nearly every test, and a served app makes some things once per
process that a test's app made again each time: its routes parsed and their URL builders
written, its templates compiled, its SQL statements compiled. Each is kept here per worker
process, keyed by what it depends on, and handed to every app the tests make
(`made_faster`, called by `tests.conftest.test_app`); what the app does with them is what it
does when served. Nothing here changes an answer: the routes' matchers, the templates and the
statements are the same ones, made once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Flask
from jinja2 import MemcachedBytecodeCache
from werkzeug.routing import Rule

from dealer.extensions import db

__all__ = ["made_faster"]


def _url_builders_made_once() -> None:
    """Make each route's URL builder once per worker, not once per app.

    werkzeug writes and compiles two small Python functions for every route as an app is
    made (about 30 ms of the 38 ms `create_app` took), and the suite makes an app for nearly
    every test. The function depends only on the route's text and defaults; the rule it is
    bound to is its argument, so one function serves the same route in every app. If a
    werkzeug release drops the private method this leans on, apps are made as before.
    """
    made = getattr(Rule, "_compile_builder", None)
    if made is None:
        return
    builders: dict[tuple[Any, ...], Any] = {}

    def once(rule: Rule, append_unknown: bool = True) -> Any:
        host_matching = rule.map.host_matching if rule.map is not None else False
        defaults = sorted((rule.defaults or {}).items(), key=repr)
        key = (rule.rule, rule.subdomain, rule.host, rule.merge_slashes, host_matching)
        key += (repr(defaults), append_unknown)
        if key not in builders:
            builders[key] = made(rule, append_unknown)
        return builders[key]

    Rule._compile_builder = once  # type: ignore[method-assign]


_url_builders_made_once()


def _rules_parsed_once() -> None:
    """Parse each route's text once per worker, not once per app.

    Binding a route to an app's URL map parses its text into the parts its matcher is built
    from (about half of what making an app costs once the builders above are kept). The parts
    depend only on the text and on which converters the map has; what binds them to one map
    (the converters, made for that map, and the route's trace and arguments) is made again
    for each rule from what the first parse asked for. As above, if a werkzeug release drops
    the private method, routes are parsed as before.
    """
    parse = getattr(Rule, "_parse_rule", None)
    if parse is None:
        return
    parsed: dict[tuple[Any, ...], tuple[list[Any], list[Any], list[Any]]] = {}

    def once(rule: Rule, text: str) -> Iterator[Any]:
        assert rule.map is not None
        key = (text, tuple(sorted((name, id(kind)) for name, kind in rule.map.converters.items())))
        if key not in parsed:
            asked: list[tuple[Any, ...]] = []
            trace_from = len(rule._trace)
            make_converter = rule.get_converter

            def recorded(variable: str, name: str, args: Any, kwargs: Any) -> Any:
                asked.append((variable, name, args, kwargs))
                return make_converter(variable, name, args, kwargs)

            rule.get_converter = recorded  # type: ignore[method-assign]
            try:
                parts = list(parse(rule, text))
            finally:
                del rule.get_converter
            parsed[key] = (parts, rule._trace[trace_from:], asked)
            return iter(parts)
        parts, trace, asked = parsed[key]
        rule._trace.extend(trace)
        for variable, name, args, kwargs in asked:
            rule._converters[variable] = rule.get_converter(variable, name, args, kwargs)
            rule.arguments.add(variable)
        return iter(parts)

    Rule._parse_rule = once  # type: ignore[method-assign]


_rules_parsed_once()


class CompiledTemplates:
    """The templates' compiled code, kept in this worker's memory for every app it makes.

    Each app has its own Jinja environment, which lexes, parses and compiles every template it
    draws again; the suite makes an app for nearly every test. Jinja's bytecode cache keys a
    template by its name and checks the source's checksum before using what it keeps, so a
    changed template is compiled afresh. It speaks the memcached client's two calls.
    """

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self.kept.get(key)

    def set(self, key: str, value: bytes, timeout: int | None = None) -> None:
        self.kept[key] = value


COMPILED = MemcachedBytecodeCache(CompiledTemplates())  # type: ignore[arg-type]


#: Per kind of database (dialect and driver): the dialect and the compiled-statement cache
#: that every app `test_app` makes in this worker uses.
SHARED_STATEMENTS: dict[tuple[str, str], tuple[Any, Any]] = {}


def statements_compiled_once(app: Flask) -> None:
    """Let the app's engines use the statements the worker's earlier apps compiled.

    SQLAlchemy keeps each statement it compiles in its engine's cache, keyed by the engine's
    dialect object: an engine made for a test compiled every query, insert and update again
    that the test ran, as the app does once per process when served (a fifth of the CPU of
    a module of API and screen tests). Every app `test_app` makes has the same engine options,
    on the same server for PostgreSQL, so one dialect per kind serves them all, and with it
    one cache. The first engine of a kind connects once here, so that the dialect it shares
    has read what its database offers (a dialect does so on its engine's first connection).
    """
    with app.app_context():
        for engine in db.engines.values():
            kind = (engine.dialect.name, engine.dialect.driver)
            if kind not in SHARED_STATEMENTS:
                with engine.connect():
                    pass
                SHARED_STATEMENTS[kind] = (engine.dialect, engine._compiled_cache)
            dialect, cache = SHARED_STATEMENTS[kind]
            engine.dialect = dialect
            engine.pool._dialect = dialect
            engine._compiled_cache = cache


def made_faster(app: Flask) -> Flask:
    """The app, its templates and statements compiled once per worker (its routes already
    are, from this module's import on)."""
    app.jinja_env.bytecode_cache = COMPILED
    statements_compiled_once(app)
    return app
