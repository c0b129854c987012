"""wordle-arena's web page: play, watch an agent think, get help with a real game, and see the tournament as charts.

`python cli.py serve` starts it (needs the `web` extra: `pip install -e '.[web]'`).
`service` does the work, free of any framework; `app` maps it to HTTP with Starlette;
`static/` holds the pages, plain HTML, CSS and JavaScript with nothing fetched from elsewhere.
"""
