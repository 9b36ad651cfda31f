"""The screens' blueprint, which every screen adds its routes to, and the ids in their addresses."""

from flask import Blueprint

from dealer.bounds import MAX_ID

bp = Blueprint("screens", __name__)
#: A screen's id in its address: up to a signed 32-bit integer, and 0 too, whose page says in
#: words that no such row is there (the API's `dealer.web.contract.ID` starts at 1).
SCREEN_ID = f"int(max={MAX_ID})"
TABLE = f"/tables/<{SCREEN_ID}:table_id>"
HAND = f"/hands/<{SCREEN_ID}:hand_id>"
