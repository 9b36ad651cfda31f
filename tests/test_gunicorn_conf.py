"""gunicorn.conf.py's hooks, read as gunicorn reads the file."""

import gc
import runpy
from pathlib import Path

CONF = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"


def test_each_worker_is_forked_with_the_loaded_app_set_apart_from_the_collector() -> None:
    """The app is loaded before the workers are forked, and what it made is frozen first: a
    worker's full collections walk what the worker made, not the whole app again."""
    settings = runpy.run_path(str(CONF))
    assert settings["preload_app"] is True
    before = gc.get_freeze_count()
    try:
        settings["pre_fork"](None, None)
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()
