"""The app's settings as the services read them: bound to the app's database by
`create_app` (`bind`) and read through the session a door passes in (`of`). So no service
reaches for Flask's app or request, and a service run outside a request (a thread, the
command line) reads the settings of the database it works on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine
from sqlalchemy.orm import Session


@dataclass(frozen=True, slots=True)
class Settings:
    """An app's configuration (read as it stands: a setting changed later is read changed)
    and its instance folder."""

    config: Mapping[str, Any] = field(default_factory=dict)
    instance_path: str = "."


_BOUND: WeakKeyDictionary[Engine, Settings] = WeakKeyDictionary()
#: Outside an app (a session on a bare engine): every reader's default.
_NONE = Settings()


def bind(engine: Engine, settings: Settings) -> None:
    """Give the services working on ``engine``'s database the app's ``settings``."""
    _BOUND[engine] = settings


def engine_of(session: Session) -> Engine:
    """The engine of the database ``session`` works on (its bind, or its connection's)."""
    bound = session.get_bind()
    return bound if isinstance(bound, Engine) else bound.engine


def of(session: Session) -> Settings:
    """The settings of the app whose database ``session`` works on."""
    return _BOUND.get(engine_of(session), _NONE)
