"""The one error type for bad input from a person: the command line prints its message as one line."""


class UserError(ValueError):
    """Input that cannot be used (a word, a pattern, a file, an option); the message says which and why."""
