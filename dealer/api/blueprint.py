"""The JSON API's blueprint, which every module of the API adds its routes to, and how each of
its views is declared."""

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from flask import Blueprint

from dealer.web.contract import declare
from dealer.web.signin import ROLE_DESCRIBED, signed_in

bp = Blueprint("api", __name__, url_prefix="/api/v1")

View = TypeVar("View", bound=Callable[..., Any])


def door(
    answers: Mapping[int, tuple[Any, str]],
    refusals: Iterable[int] = (),
    *,
    role: str = "dealer",
    **declared: Any,
) -> Callable[[View], View]:
    """`declare` a view of the API that only a signed-in user holding ``role`` or above may
    call (`signed_in`): what the document says of it and who may call it, said together (the
    role at the end of its description, unless the view's own words say it)."""

    def decorate(view: View) -> View:
        doc = inspect.getdoc(view) or ""
        if role in ROLE_DESCRIBED and "Role:" not in doc:
            view.__doc__ = f"{doc}\n\n{ROLE_DESCRIBED[role]}"
        return signed_in(role)(declare(answers, refusals, **declared)(view))

    return decorate
