"""The one error type for bad input from a person: the command line prints its message as one line."""


class UserError(ValueError):
    """Input that cannot be used (a word, a pattern, a file, an option); the message says which and why."""


#: The most characters of a message, or of a piece of input echoed in one, shown to a person.
MOST_SHOWN = 400


def clip(text: str, most: int = MOST_SHOWN) -> str:
    """Text as one line of at most about `most` characters, saying how long it was when cut.

    >>> clip("a\\nb")
    'a b'
    >>> clip("x" * 50, 10)
    'xxxxxxxxxx... (50 characters)'
    """
    line = " ".join(text.splitlines())
    return line if len(line) <= most else f"{line[:most]}... ({len(line)} characters)"
