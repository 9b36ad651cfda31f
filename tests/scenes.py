"""Scenes: what a test starts from, played through the API once per worker, then copied.

A scene is a fixture (``evening``): a function that plays a story through the API with
signed-in clients (``api``, ``floor``, ``admin``, as `tests.both_databases` signs them in),
on a database with `PEOPLE`. `tests.conftest` plays it once per worker and kind of database
into a template of its own, made from the people template (its checkpoint file beside it,
since its chain is held against the database), and a test that asks for the scene gets a
copy of that database and of that file, its ``api``/``floor`` clients signed in as the play
left them (the same tokens, the same session cookie), and a copy of what the play returned:
the rows, sign-ins and audit trail the fixtures would have made for that test, made once.

A client the scene was not played by signs in when the test asks for it, after the scene.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import Cookie

from tests.helpers import Api

#: The signed-in clients a scene is played by: each fixture, and the role it signs in as.
SIGN_INS = {"api": "dealer", "floor": "supervisor", "admin": "admin"}

#: How long a played template is used before the scene is played again: at most a third of
#: the sign-ins' idle limit (``IDLE_SECONDS``, 900 s by default), five minutes by default.
#: Its sign-ins were last used as it was played, and a copy's sign-ins are the template's: a
#: sign-in unused for IDLE_SECONDS has ended, and one ends SIGN_IN_HOURS after it began,
#: whatever its use. The tests also look for the scene's hands in windows of hours around
#: now. A worker plays the scene at its first test that asks for it; on a slow CI run (or
#: one with many workers) its next such test may come many minutes later, and then the
#: template is older than this and the scene is played again into a new one, instead of
#: handing out sign-ins that would idle out in the test. A test's first request so finds
#: its sign-ins with ten minutes or more to live, and writes their last use as any request
#: does; its hands are minutes old at most, inside every window of hours the tests ask.
KEPT_SECONDS = 300.0


@dataclass(frozen=True)
class Scene:
    """A fixture played by ``players`` (in the order the fixtures sign in) with ``play``."""

    name: str
    players: tuple[str, ...]
    play: Callable[..., Any]


#: Every scene, by its fixture's name.
SCENES: dict[str, Scene] = {}


@dataclass(frozen=True)
class SignedIn:
    """One player's sign-in as the play left it: its bearer token and its cookies."""

    token: str
    cookies: tuple[Cookie, ...]

    def client(self, app: Flask) -> Api:
        """A client of ``app`` holding this sign-in, as the fixture's own client held it."""
        client = app.test_client()
        for c in self.cookies:
            client.set_cookie(
                c.decoded_key,
                c.decoded_value,
                domain=c.domain,
                origin_only=c.origin_only,
                path=c.path,
            )
        return Api(client, self.token)


@dataclass(frozen=True)
class Run:
    """A scene played once: when it began, each player's sign-in, what ``play`` returned."""

    began: float  # time.monotonic()
    kept: float  # seconds it may be used for (`KEPT_SECONDS`)
    sign_ins: dict[str, SignedIn]
    result: Any

    def fresh(self) -> bool:
        return time.monotonic() - self.began < self.kept


def play_scene(scene: Scene, app: Flask) -> Run:
    """Play ``scene`` on ``app``: its players signed in as their fixtures sign in, in order."""
    began = time.monotonic()
    clients = {who: Api.sign_in(app, SIGN_INS[who]) for who in scene.players}
    result = scene.play(*clients.values())
    cookie = str(app.config["SESSION_COOKIE_NAME"])
    sign_ins = {}
    for who, api in clients.items():
        session = api.client.get_cookie(cookie)
        assert session is not None, f"{who}'s sign-in set no {cookie} cookie to carry over"
        sign_ins[who] = SignedIn(str(api.token), (session,))
    idle = int(app.config["IDLE_SECONDS"])
    kept = min(KEPT_SECONDS, idle / 3) if idle > 0 else KEPT_SECONDS
    return Run(began, kept, sign_ins, result)


def asked(request: pytest.FixtureRequest) -> Scene | None:
    """The scene the test asks for, if any (a test asks for one at most)."""
    found = [SCENES[name] for name in request.fixturenames if name in SCENES]
    assert len(found) <= 1, f"a test starts from one scene: {[s.name for s in found]}"
    return found[0] if found else None


#: The run a test's database was copied from, kept on the test for its fixtures.
HANDED = pytest.StashKey[Run]()


def signed_in(request: pytest.FixtureRequest, app: Flask, who: str) -> Api:
    """``who``'s client (``api``, ``floor``, ``admin``): the scene's sign-in when the test's
    database comes from a scene ``who`` played, else signed in now."""
    run = request.node.stash.get(HANDED, None)
    if run is not None and who in run.sign_ins:
        return run.sign_ins[who].client(app)
    return Api.sign_in(app, SIGN_INS[who])


def scene(name: str, play: Callable[..., Any], *players: str) -> Any:
    """The fixture ``name``: what ``play``, played by ``players``, returned; the test's
    database is a copy of the template it was played into (`tests.conftest`)."""
    SCENES[name] = Scene(name, players, play)

    @pytest.fixture(name=name)
    def given(request: pytest.FixtureRequest, people: Flask) -> Any:
        return copy.deepcopy(request.node.stash[HANDED].result)

    return given
