"""Tables of the dealer app (typed SQLAlchemy 2.0), all on `Base`'s metadata."""

from dealer.extensions import Base, db

__all__ = ["Base", "db"]
