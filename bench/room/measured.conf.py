"""gunicorn.conf.py's settings, and in each worker the timing of its holds of the writers'
lock (`bench.room.holds`) into the folder DEALER_BENCH_HOLDS names: what `bench.floor` serves
its floor with."""

import os
import runpy
from pathlib import Path

_settings = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
globals().update({name: value for name, value in _settings.items() if not name.startswith("_")})


def post_fork(server, worker):
    from bench.room.holds import FOLDER, install

    install(os.environ[FOLDER])
