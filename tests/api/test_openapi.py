"""GET /api/v1/openapi.json: a valid OpenAPI document that the app itself honours.

schemathesis builds requests from the document, in-process against the WSGI
app, signed in with a bearer token (as an admin, so roles rarely stop it), on
a table with seated players and a hand in play, and runs every check it has
on each answer (`every_check`): no server error; status code, content type, headers
and body as documented (every refusal an operation can answer is listed, with
the error body); a schema-breaking request refused, and one the document calls
valid not refused for its shape (`valid_request_not_refused`, schemathesis's
positive-data check less the refusals on Pan's rules and the table's state);
credentials enforced where the document asks for them. Two passes per
operation: ids that exist (table 1, hand 1, seat 1) and ids drawn at random;
schema-valid bodies and schema-breaking ones. Then the coverage phase's
requests: each bound at its edges, each required field or header left out, and
every method an address does not take, which must be a 405 with an Allow header.
Each request is made once and sent to two apps, one on SQLite and one on
PostgreSQL, the same table in play on each; a failure names the database.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from openapi_spec_validator import validate
from schemathesis.checks import CHECKS as SCHEMATHESIS_CHECKS
from schemathesis.checks import load_all_checks
from schemathesis.core.failures import FailureGroup
from schemathesis.generation import GenerationMode
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from tests.conftest import app_on, database_of, people_template
from tests.examples import examples
from tests.helpers import Api

#: Each operation's examples: 12 scaled for the run (tests/examples.py), or DEALER_FUZZ_EXAMPLES.
EXAMPLES = int(os.environ.get("DEALER_FUZZ_EXAMPLES", examples(12)))
# Same cases every run (CI must not flake); DEALER_FUZZ_RANDOM=1 explores new ones.
DERANDOMIZE = os.environ.get("DEALER_FUZZ_RANDOM") != "1"
#: The addresses the document covers: the API, and the reports and exports it signs in to.
DOCUMENTED = ("/api/v1", "/reports/", "/exports/")
REAL_IDS = {"table_id": 1, "hand_id": 1, "seat": 1, "session_id": 1}
#: The codes of a refusal of a request's shape: a body, a parameter or a header that is not
#: what the document says the call takes. A request the document calls valid must never
#: get one. Any other refusal is the app's own judgement of a well-formed request: Pan's
#: rules (three cards that are not a meld, a 9 in a meld, a shoe with no spades left), the
#: state of the table (a seat taken, a hand in play, an event that is not there), or a time
#: that is no time (the reports read ISO 8601 themselves).
SHAPE_CODES = frozenset(
    {
        "bad_request",
        "invalid",
        "invalid_card",
        "invalid_idempotency_key",
        "invalid_name",
        "invalid_pin",
        "invalid_query",
        "invalid_role",
        "malformed_json",
        "too_large",
        "unknown_field",
        "unsupported_media_type",
    }
)


def valid_request_not_refused(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis's positive-data check, except for a refusal on Pan's rules or state.

    A 4xx answer to a request the document calls valid is "valid request rejected" when
    its code says the request's shape was wrong (`SHAPE_CODES`).
    """
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        try:
            code = response.json()["error"]["code"]
        except (ValueError, KeyError, TypeError):
            code = None
        if code is None or code in SHAPE_CODES:
            raise
        return None


load_all_checks()


def every_check() -> list[Any]:
    """Every check schemathesis has (a new version's new ones too), the positive-data one as
    `valid_request_not_refused` judges it. ``ignored_auth`` probes an operation's credentials
    once a run, as schemathesis's own runner does, not again on every answer."""
    enforced: set[str] = set()

    def ignored_auth_once(ctx: Any, response: Any, case: Any) -> bool | None:
        ctx.auth_enforced_operations = enforced
        return ignored_auth(ctx, response, case)

    ignored_auth_once.__name__ = "ignored_auth"
    swap = {positive_data_acceptance: valid_request_not_refused, ignored_auth: ignored_auth_once}
    return [swap.get(check, check) for check in SCHEMATHESIS_CHECKS.get_all()]


def test_every_check_schemathesis_has_runs() -> None:
    names = {check.__name__ for check in every_check()}
    assert names >= {
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
        "valid_request_not_refused",
        "missing_required_header",
        "unsupported_method",
        "allow_header_conformance",
        "ignored_auth",
    }
    assert "positive_data_acceptance" not in names


def test_the_document_is_valid_openapi(client: Any) -> None:
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    document = answer.get_json()
    validate(document)
    assert document["openapi"].startswith("3.1")


def test_the_document_covers_every_api_route(app: Flask) -> None:
    document = app.test_client().get("/api/v1/openapi.json").get_json()
    documented = {
        (method.upper(), path) for path, item in document["paths"].items() for method in item
    }
    routed = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(DOCUMENTED):
            continue
        path = re.sub(r"<(?:[^<>]*:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                routed.add((method, path))
    assert documented == routed


@dataclass
class Target:
    """One app the cases go to: its database's kind, its admin's headers, its own checks (each
    app's credentials probed once a run, `every_check`)."""

    kind: str
    app: Flask
    headers: dict[str, str]
    checks: list[Any] = field(default_factory=every_check)


def send(case: Any, targets: list[Target]) -> None:
    """Send ``case`` to each target and run its checks on the answer; raise, naming each
    database whose app answered off the document, when one did."""
    failed = []
    for target in targets:
        try:
            case.call_and_validate(headers=target.headers, checks=target.checks, app=target.app)
        except (Exception, FailureGroup) as exc:  # a FailureGroup is no Exception
            failed.append(f"on {target.kind}: {exc}")
    if failed:
        raise AssertionError("\n\n".join(failed))


def fuzz(strategy: Any, targets: list[Target]) -> Any:
    """A hypothesis test that sends each generated case to every target (`send`)."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=DERANDOMIZE,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        send(case, targets)

    return run


def in_play(app: Flask) -> Api:
    """Table 1 with three seated players and hand 1 in play, one meld down; signed in as the
    admin."""
    api, floor = Api.sign_in(app, "dealer"), Api.sign_in(app, "supervisor")
    table = floor.table("classic", collection={"kind": "time", "chips": 1, "minutes": 30})
    assert table["id"] == 1
    for seat in (1, 2, 3):
        api.seat(1, seat, f"P{seat}")
    hand = api.hand(1)
    assert hand["id"] == 1
    api.event(1, {"type": "meld", "seat": 1, "cards": ["5C", "6C", "7C"]})
    return Api.sign_in(app, "admin")


@pytest.fixture
def tables_in_play(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Api]]:
    """`in_play` on SQLite and on PostgreSQL, each app on its own database, by kind. Without
    PostgreSQL (when it is not required: `postgres_server`), the SQLite one alone: the test
    runs on it, then skips, saying so."""
    with ExitStack() as stack:
        tables = {}
        for kind in ("sqlite", "postgresql"):
            folder = tmp_path / kind
            folder.mkdir()
            try:
                database = stack.enter_context(
                    database_of(request, kind, folder, *people_template(request, kind))
                )
            except pytest.skip.Exception:
                continue
            tables[kind] = in_play(stack.enter_context(app_on(database.uri, folder)))
        yield tables


#: The operations are dealt round these shards, each its own test, so the suite's workers
#: share the fuzzing (one test of all of them was the suite's longest by far).
SHARDS = 6


def operations(schema: Any, shard: int) -> list[Any]:
    """This shard's operations: every SHARDS-th in the document's order, less signing out
    (it would end the run's own sign-in; tested in test_session)."""
    every = [
        result.ok()
        for result in schema.get_all_operations()
        if not (result.ok().method.upper() == "DELETE" and result.ok().path == "/api/v1/session")
    ]
    return every[shard::SHARDS]


@pytest.mark.postgres
@pytest.mark.parametrize("shard", range(SHARDS))
def test_schemathesis_finds_no_server_error_and_no_answer_off_the_document(
    tables_in_play: dict[str, Api], request: pytest.FixtureRequest, shard: int
) -> None:
    """Each case is made once and sent to the SQLite app, then the PostgreSQL one: making
    them was about 40% of a shard's time, paid once for each database when each had its own
    test, and with `DERANDOMIZE` they were the same cases. The two apps start the same and
    get the same requests in the same order, so each answers as it would alone."""
    targets = [
        Target(kind, table.client.application, {"Authorization": f"Bearer {table.token}"})
        for kind, table in tables_in_play.items()
    ]
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", targets[0].app)
    failures: list[str] = []
    tried = 0
    for operation in operations(schema, shard):
        params = {k: v for k, v in REAL_IDS.items() if "{" + k + "}" in operation.path}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for fixed in ({}, params) if params else ({},):
                strategy = operation.as_strategy(
                    generation_mode=mode, path_parameters=fixed or None
                )
                run = fuzz(strategy, targets)
                tried += 1
                try:
                    run()
                except Exception as exc:  # collect every operation's failure, then report
                    failures.append(f"{operation.method.upper()} {operation.path} [{mode}] {exc}")
    assert tried >= 10
    failures += coverage(schema, operations(schema, shard), targets)
    assert not failures, "\n\n".join(failures)
    if "postgresql" not in tables_in_play:
        request.getfixturevalue("postgres_server")  # skips, saying PostgreSQL's half did not run


def test_the_shards_cover_every_operation_once(app: Flask) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    dealt = [(op.method, op.path) for shard in range(SHARDS) for op in operations(schema, shard)]
    every = {(r.ok().method, r.ok().path) for r in schema.get_all_operations()}
    assert len(dealt) == len(set(dealt)) == len(every) - 1  # all but signing out, once each


def coverage(schema: Any, chosen: list[Any], targets: list[Target]) -> list[str]:
    """The coverage phase's requests for the ``chosen`` operations, each sent to every
    target once (`send`); the failures, one line each."""
    failures = []
    for operation in chosen:
        config = schema.config.generation_for(operation=operation, phase="coverage")
        modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
        for case in schema.iter_coverage_cases(
            operation, generation_modes=modes, generation_config=config
        ):
            mode = case.meta.generation.mode
            try:
                send(case, targets)
            except AssertionError as exc:
                failures.append(
                    f"{case.method} {operation.path} [coverage, {mode}, "
                    f"{case.meta.phase.data.description}] {exc}"
                )
    return failures


def _schemas(app: Flask) -> tuple[dict[str, Any], dict[str, Any]]:
    document = app.test_client().get("/api/v1/openapi.json").get_json()
    return document, document["components"]["schemas"]


def test_every_closed_set_of_values_in_an_answer_is_an_enum(app: Flask) -> None:
    _, schemas = _schemas(app)

    def values(schema: str, field: str) -> set[str]:
        found = schemas[schema]["properties"][field]
        found = found.get("items", found)
        return set(found["enum"])

    assert values("ReplayView", "status") == {"playing", "settled", "void"}
    assert values("ReplaySeat", "status") == {"in", "dropped", "fouled"}
    assert values("HandSeatView", "allowed") >= {"drop", "meld", "go_out", "void_hand"}
    assert "deal" not in values("HandSeatView", "allowed")
    assert values("Posted", "rule") >= {"condition", "going_out", "drop_forfeit", "pot"}
    assert values("EntryView", "rule") == values("RuleNamed", "code")
    assert values("EntryView", "rule") >= values("Posted", "rule") | {"buy_in", "cash_out"}
    assert values("ProblemView", "check") >= {"chain", "checkpoint", "hands_net_zero", "replay"}


def test_every_time_a_client_sends_says_its_format(app: Flask) -> None:
    document, _ = _schemas(app)
    times = [
        (path, parameter["schema"])
        for path, item in document["paths"].items()
        for operation in item.values()
        for parameter in operation.get("parameters", [])
        if parameter["name"] in ("from", "to")
    ]
    assert len(times) >= 10
    for path, schema in times:
        # A date-time; where an end of the window may be left open, a date-time or empty.
        kinds = schema.get("anyOf", [schema])
        assert kinds[0]["format"] == "date-time", (path, schema)
        assert kinds[1:] in ([], [{"type": "string", "maxLength": 0}]), (path, schema)


def test_the_document_names_its_server_and_only_schemas_it_uses(app: Flask) -> None:
    document, schemas = _schemas(app)
    assert document["servers"] == [
        {"url": "/", "description": document["servers"][0]["description"]}
    ]
    text = json.dumps(document)
    unused = [name for name in schemas if f'"#/components/schemas/{name}"' not in text]
    assert unused == []
    # The answer to a refusal: API.md's shape, under a name a generated client can build.
    assert "Error" not in schemas
    assert schemas["Refused"]["required"] == ["error"]
    assert set(schemas["Refusal"]["properties"]) == {"code", "message"}


def test_each_operation_lists_only_refusals_it_can_answer(app: Flask) -> None:
    document, _ = _schemas(app)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            answers = operation["responses"]
            assert "400" not in answers, (method, path)  # nothing answers it
            if "401" in answers:
                assert "WWW-Authenticate" in answers["401"]["headers"], (method, path)
    # Open to every signed-in user, refusing no one for who they are: no 403.
    by_name = {
        operation["operationId"]: set(operation["responses"])
        for item in document["paths"].values()
        for operation in item.values()
    }
    anyone = ("sign_out", "list_tables", "find_players", "add_player", "read_player")
    for name in (*anyone, "list_disputes"):
        assert "403" not in by_name[name] and "401" in by_name[name], name
    assert {"403", "404"} <= by_name["read_table"] and "403" in by_name["export_ledger"]
    served = document["paths"]["/api/v1/openapi.json"]["get"]["responses"]
    assert sorted(served) == ["200", "304", "414"]  # 414: every address, the app's own limit
    pdf = document["paths"]["/reports/hands/{hand_id}.pdf"]["get"]["responses"]["200"]
    assert set(pdf["content"]) == {"application/pdf", "application/octet-stream"}


def test_a_body_field_left_out_has_no_default_but_its_words(app: Flask) -> None:
    """A generator takes a field with a default for one always there; in a body it is not."""
    _, schemas = _schemas(app)
    assert "default" not in schemas["NewTable"]["properties"]["rules"]
    claimed = schemas["MeldEvent"]["properties"]["claimed"]
    assert "default" not in claimed and claimed["description"].endswith("Left out: true.")


def test_verify_says_what_full_false_checked_when_there_is_no_checkpoint(
    app: Flask, floor: Api
) -> None:
    _, schemas = _schemas(app)
    full = schemas["VerificationView"]["properties"]["full"]["description"]
    assert "from the start when there is none (checkpoint null, checked_from 0)" in full
    report = floor.get("/ledger/verify")
    assert (report["full"], report["checkpoint"], report["checked_from"]) == (False, None, 0)
