"""pytest collects web/'s doctests only where the `web` extra is installed (Starlette, and uvicorn's h11 for the guard)."""

import importlib.util

WEB_EXTRA = all(importlib.util.find_spec(name) for name in ("starlette", "uvicorn", "h11"))
collect_ignore = [] if WEB_EXTRA else ["app.py", "guards.py"]
