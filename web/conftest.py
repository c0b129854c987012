"""pytest collects web/'s doctests only where Starlette is installed (the `web` extra)."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("starlette") else ["app.py"]
