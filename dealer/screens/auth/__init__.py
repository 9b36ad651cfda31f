"""Signing in and out at the tablet: name and PIN pad, sign-out, sign-out after idle time.

The pages share one sign-in model with the API (`dealer.web.signin`): the same users and
roles, and one `AuthToken` row per sign-in, which the session cookie points at.
`guard.page` is what every web page uses to say who may see it.
"""

from dealer.screens.auth import first_run, routes  # noqa: F401  (routes)
from dealer.screens.auth.blueprint import bp

__all__ = ["bp"]
