"""Who is signed in: one `Principal` per request, from the session cookie or a bearer token.

Flask-Login finds it (`install` registers the loaders on the app's login manager);
`principal`, `device` and `recorder` read it. `signed_in` guards a JSON front door (the
API and the reports): it answers 401 or 403 in the API's error shape, where a screen
sends the tablet to the sign-in page instead (`dealer.screens.auth.guard.page`). Both ask the
same question of the same user: `dealer.people.users.require_role`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from flask import g, request
from flask_login import LoginManager, current_user

from dealer.errors import NotSignedIn, UnsupportedMediaType
from dealer.extensions import current_session
from dealer.ledger import Recorder
from dealer.models import AuthToken, Device, User
from dealer.people.audit import CLAIMED_DEVICE
from dealer.people.devices import recorded_as, tablet_device
from dealer.people.sign_ins import find_token, not_signed_in
from dealer.people.users import Voucher, require_role, vouch
from dealer.words.catalogue import say

if TYPE_CHECKING:
    from dealer.inputs import Supervisor

#: Who may call a view of the API, as its description in the document ends, by the role it
#: needs (`dealer.api.blueprint.door`): words for the document's readers, not the floor.
ROLE_DESCRIBED = {"supervisor": "Role: supervisor or above.", "admin": "Role: admin."}

View = TypeVar("View", bound=Callable[..., Any])

#: The longest bearer token and X-Device name read; anything longer is not ours.
LONGEST_TOKEN = 200
LONGEST_DEVICE = 200


@dataclass(eq=False)
class Principal:
    """The signed-in user of this request, the token row it signed in with, and how."""

    user: User
    token: AuthToken
    via: Literal["bearer", "cookie"]
    #: The sign-in's random token: the bearer token, and what the (signed) cookie carries.
    secret: str = field(repr=False)
    #: ``user.id``, read once at sign-in: a write begins by ending the sign-in's read
    #: transaction, which expires ``user``, and reading its id again would cost a query.
    user_id: int = field(init=False)

    is_authenticated = True
    is_active = True
    is_anonymous = False

    def __post_init__(self) -> None:
        self.user_id = self.user.id

    def get_id(self) -> str:
        # What Flask-Login keeps in the cookie: the random token itself (signed by the
        # SECRET_KEY), never the row's sequential id, so no id can be guessed or counted.
        return self.secret


def _found(token: str, via: Literal["bearer", "cookie"]) -> Principal | None:
    row = find_token(current_session(), token)
    if isinstance(row, str):
        g.sign_in_ended = row  # the words the 401 says
        return None
    return Principal(row.user, row, via, token)


def _from_cookie(token: object) -> Principal | None:
    """The sign-in the cookie's user field names. The field is whatever the signed cookie
    holds: anything but the text of a token (a number, a list ... only someone holding the
    key could have signed it) is no sign-in at all."""
    if "Authorization" in request.headers or not isinstance(token, str):
        return None
    if not token or len(token) > LONGEST_TOKEN:
        return None
    return _found(token, "cookie")


def _from_bearer(req: Any) -> Principal | None:
    header = req.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > LONGEST_TOKEN:
        return None
    return _found(token.strip(), "bearer")


def why_signed_out(role: str = "dealer") -> str:
    """Why this request is not signed in, in words: its sign-in ended (and how), or none
    (and ``role`` or above is needed)."""
    return str(g.get("sign_in_ended") or not_signed_in(role))


def install(login: LoginManager) -> None:
    """Tell Flask-Login how a request names its sign-in: the cookie, else a bearer token."""
    login.user_loader(_from_cookie)
    login.request_loader(_from_bearer)


def principal() -> Principal:
    """The signed-in user of this request (only in a view guarded as signed in)."""
    return cast(Principal, current_user._get_current_object())


def signed_in(role: str = "dealer", *, form_post: bool = False) -> Callable[[View], View]:
    """Let a JSON view run only for a signed-in user holding ``role`` or above.

    ``form_post``: the view also takes a screen's form, whose CSRF token Flask-WTF has checked
    before the view runs (the Print buttons): that token, not JSON, proves it is not
    cross-site.
    """

    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                raise NotSignedIn(why_signed_out(role))
            who = principal()
            require_role(who.user, role)
            if not (form_post and request.method == "POST"):
                _refuse_cross_site(who)
            return view(*args, **kwargs)

        return cast(View, guarded)

    return decorate


def _refuse_cross_site(who: Principal) -> None:
    """A cookie-signed write must say it is JSON, which no cross-site HTML form can.

    The cookie is sent by the browser on its own (CSRF's way in), so a write
    signed only by it must come as ``application/json``: a form on another
    site can post only form or text bodies, and a script there would need a
    CORS preflight this app never grants. A bearer token is never sent by the
    browser on its own, so bearer calls need no such proof. The cookie is also
    ``SameSite=Lax``. This is why the API is exempt from Flask-WTF's CSRF token.
    """
    if who.via != "cookie" or request.method in ("GET", "HEAD", "OPTIONS", "DELETE"):
        return
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(
            say("Send writes as JSON, with Content-Type: application/json."),
            "unsupported_media_type",
        )


def source() -> str:
    """The client address a sign-in try comes from (the lockout counts per source). Behind a
    proxy it is the proxy's, unless DEALER_PROXY_HOPS lets ProxyFix read X-Forwarded-For."""
    return request.remote_addr or "unknown"


def approving(supervisor: Supervisor | None) -> int | None:
    """The id of the supervisor whose name and PIN came with this request, if any: the same
    for every door (who then approves is `dealer.floor.approvals`'s).

    Checked before the write begins: a PIN's slow hash never holds the writers' lock, and a
    wrong one is counted (its own transaction) for this name at this source, for the
    signed-in user who typed it, whatever the write does after.
    """
    return None if supervisor is None else _vouched("supervisor", supervisor)


def confirming(witness: Supervisor) -> int:
    """The id of the second person whose name and PIN came with this request (a count): any
    role, checked and a wrong PIN counted as an approval is, the same for every door."""
    return _vouched("witness", witness)


def _vouched(voucher: Voucher, person: Supervisor) -> int:
    """``person`` vouching as ``voucher``, a wrong PIN counted for the signed-in user here."""
    return vouch(
        current_session(),
        voucher,
        person.name,
        person.pin,
        source=source(),
        asked_by=principal().user_id,
    )


#: The tablet's cookie naming its registered device (`dealer.people.devices`).
DEVICE_COOKIE = "dealer_device"


def tablet() -> Device | None:
    """The registered device this request came from (its cookie), if any; read once."""
    if "dealer_tablet" not in g:
        token = request.cookies.get(DEVICE_COOKIE)
        g.dealer_tablet = tablet_device(current_session(), token) if token else None
    return cast(Device | None, g.dealer_tablet)


def device() -> str:
    """The device a call came from, as records keep it (`dealer.people.devices.recorded_as`): the
    registered tablet's name, then its ``X-Device`` header, else its user agent."""
    claim = request.headers.get("X-Device") or request.headers.get("User-Agent") or "unknown"
    return recorded_as(tablet(), claim[:LONGEST_DEVICE])


def recorder() -> Recorder:
    """Who records this request's entries: the signed-in user, from this device."""
    return Recorder(principal().user_id, device())


def claim_device() -> None:
    """Before each request: tell the audit trail how to name this request's device."""
    g.dealer_claimed_device = CLAIMED_DEVICE.set(device)


def forget_device(_error: BaseException | None = None) -> None:
    """After each request: the thread's next work (another request, a command) is not this
    request's, so the audit trail forgets its device."""
    token = g.pop("dealer_claimed_device", None)
    if token is None:
        return
    try:
        CLAIMED_DEVICE.reset(token)
    except ValueError:  # a teardown run in another context (a streamed answer): just clear it
        CLAIMED_DEVICE.set(None)
