"""pytest collects the PPO trainer's doctests only where JAX and optax are installed (the `learn` extra)."""

import importlib.util

collect_ignore = [] if all(importlib.util.find_spec(name) for name in ("jax", "optax")) else ["learn.py", "imitate.py"]
