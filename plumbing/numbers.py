"""Numbers as every surface prints them: rounded, and never a negative zero ("-0.000", `-0.0` in JSON)."""

from __future__ import annotations

import math


def rounded_plain(value: float, digits: int) -> float:
    """`round(value, digits)` as plain data, a result of zero always +0.0 (a tiny negative difference rounds to 0.0,
    never to -0.0, which JSON would print as "-0.0").

    Args:
        value: any float (inf and nan are returned as they are).
        digits: decimal places kept.

    Returns:
        The rounded value, +0.0 where it rounds to zero.

    >>> rounded_plain(-1e-9, 6), rounded_plain(-0.0, 3), rounded_plain(2.34567, 2)
    (0.0, 0.0, 2.35)
    """
    if not math.isfinite(value):
        return value
    result = round(float(value), digits)
    return 0.0 if result == 0 else result


def fixed(value: float, digits: int) -> str:
    """A number with `digits` decimal places, as text, never "-0.000": a value that rounds to zero prints unsigned.

    Args:
        value: any finite float.
        digits: decimal places shown.

    Returns:
        The text, e.g. "0.008".

    >>> fixed(-0.00001, 4), fixed(0.0083, 4), fixed(-0.25, 2), fixed(-0.0, 3)
    ('0.0000', '0.0083', '-0.25', '0.000')
    """
    text = f"{float(value):.{digits}f}"
    return text[1:] if text.startswith("-") and not any(ch in "123456789" for ch in text) else text


__all__ = ["fixed", "rounded_plain"]
