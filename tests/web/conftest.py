"""The shared web layer is reached through the screens and the API: its tests sign in as the
screens' tests do."""

from tests.screens.conftest import admin, dealer, floor_api, supervisor

__all__ = ["admin", "dealer", "floor_api", "supervisor"]
