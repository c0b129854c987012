"""The command line's commands, one module each; `cli.py` parses and dispatches to them.

Each command module adds its parser (`add_<name>_command`) and renders what the library returns; what a
command computes lives in the library (`wordle`, `agents`, `tournament`), where Python and the web call it too.
Shared flags live in `options`, terminal rendering in `render`, the game a command plays in `games`.
"""
