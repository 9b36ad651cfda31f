"""The JSON API under /api/v1 (API.md): thin views that parse, authorise and delegate.

Each view checks who is calling (`dealer.web.signin`) and is declared with
`dealer.web.contract.declare`: the models of `dealer.inputs` it takes, the views of
`dealer.views` it answers with and the refusals it may give. spectree validates the request
against those models before the view runs, and makes the OpenAPI document (`openapi`) from
the same declarations, so no schema is written twice. The view runs the service inside one
write transaction (`writes.write`) and answers with the view's own dump (`View.answer`):
what is sent is what the document describes. The rules engine's errors and the service's
errors become the API's error shape in `errors`.
"""

from dealer.api import (  # noqa: F401  (routes)
    desk,
    disputes,
    errors,
    hands,
    ledger,
    openapi,
    players,
    signin,
)

# The document lists the paths in the order they are registered: the downs' where their
# module sorted before (as table_sessions), ahead of the modules that sort after that.
# isort: split
from dealer.api import (  # noqa: F401  (routes)
    downs,
    tables,
    users,
)
from dealer.api.blueprint import bp

__all__ = ["bp"]
