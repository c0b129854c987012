"""Letter-frequency scores: how common a guess's letters are among the answers still possible.

Higher is better (the Guesser's point of view). For candidates C (n words) and a guess w:

- local share of position i: l_i = |{c in C : c[i] = w[i]}| / n;
- global share of a letter L: g_L = |{c in C : L occurs in c}| / n, taken once for each
  distinct letter of w (a repeated letter counts once).

The four ways of combining them, over positions i = 0..4 and distinct letters L of w:

- sum:     sum_i l_i + sum_L g_L
- product: prod_i (1 + l_i) * prod_L (1 + g_L)   (one added, so one rare letter lowers the score but cannot zero it)
- squares: sum_i l_i^2 + sum_L g_L^2             (favours a few very common letters over many middling ones)
- ratio:   sum_L g_L + sum_i l_i / g_{w[i]}     (the second term: the chance that, when w[i] is in the
                                                 answer, it sits at position i, i.e. turns green; 0 when g = 0)

`letter_scores` is the vectorised path; `reference_letter_score` the readable oracle.

>>> shares = letter_shares(encode_letters(['abbey', 'abide']), np.array([0, 1]))
>>> round(float(letter_scores(encode_letters(['abbey']), *shares, 'sum')[0]), 6)
7.0
"""

from __future__ import annotations

import numpy as np

from wordle.words import WORD_LENGTH, encode_letters

COMBINE = ("sum", "product", "squares", "ratio")
_ALPHABET = 26


def letter_shares(answer_letters: np.ndarray, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Local and global letter shares among the candidates.

    Args:
        answer_letters: (answers, 5) letter numbers of every answer.
        candidates: answer indices still possible (non-empty).

    Returns:
        (local, global): local[i, L] is the share of candidates with letter L at position i
        (a (5, 26) array); global[L] the share of candidates containing L at all (26).
    """
    letters = answer_letters[np.asarray(candidates)]
    n = letters.shape[0]
    if n == 0:
        raise ValueError("letter shares need at least one candidate")
    local = np.zeros((WORD_LENGTH, _ALPHABET))
    for position in range(WORD_LENGTH):
        local[position] = np.bincount(letters[:, position], minlength=_ALPHABET)
    contains = np.zeros((n, _ALPHABET), dtype=bool)
    contains[np.repeat(np.arange(n), WORD_LENGTH), letters.ravel()] = True
    return local / n, contains.sum(axis=0) / n


def first_occurrences(guess_letters: np.ndarray) -> np.ndarray:
    """(guesses, 5) mask: True where a letter appears for the first time in its word."""
    earlier = np.zeros(guess_letters.shape, dtype=bool)
    for position in range(1, WORD_LENGTH):
        earlier[:, position] = (guess_letters[:, :position] == guess_letters[:, position, None]).any(axis=1)
    return ~earlier


def letter_scores(guess_letters: np.ndarray, local: np.ndarray, global_: np.ndarray, combine: str = "product",
                  first: np.ndarray | None = None) -> np.ndarray:
    """The letter-frequency score of every guess, combined as named (see the module docstring).

    Args:
        guess_letters: (guesses, 5) letter numbers.
        local, global_: shares from `letter_shares`.
        combine: one of COMBINE.
        first: `first_occurrences(guess_letters)`, if already computed.

    Returns:
        One score per guess, higher is better.
    """
    if combine not in COMBINE:
        raise ValueError(f"unknown combination '{combine}'; choose one of {', '.join(COMBINE)}")
    first = first_occurrences(guess_letters) if first is None else first
    l = local[np.arange(WORD_LENGTH), guess_letters]  # (g, 5): l_i
    g = global_[guess_letters]  # (g, 5): g of the letter at i
    g_once = np.where(first, g, 0.0)
    if combine == "sum":
        return l.sum(axis=1) + g_once.sum(axis=1)
    if combine == "product":
        return np.prod(1.0 + l, axis=1) * np.prod(np.where(first, 1.0 + g, 1.0), axis=1)
    if combine == "squares":
        return (l * l).sum(axis=1) + (g_once * g_once).sum(axis=1)
    concentration = np.divide(l, g, out=np.zeros_like(l), where=g > 0)
    return g_once.sum(axis=1) + concentration.sum(axis=1)


def reference_letter_score(word: str, candidates: list[str], combine: str) -> float:
    """The same score for one word, computed plainly from the candidate words (the oracle for tests)."""
    n = len(candidates)
    local = [sum(c[i] == word[i] for c in candidates) / n for i in range(WORD_LENGTH)]
    share = {letter: sum(letter in c for c in candidates) / n for letter in set(word)}
    distinct = list(share.values())
    if combine == "sum":
        return sum(local) + sum(distinct)
    if combine == "product":
        result = 1.0
        for value in local + distinct:
            result *= 1.0 + value
        return result
    if combine == "squares":
        return sum(v * v for v in local) + sum(v * v for v in distinct)
    if combine == "ratio":
        return sum(distinct) + sum(local[i] / share[word[i]] if share[word[i]] else 0.0 for i in range(WORD_LENGTH))
    raise ValueError(f"unknown combination '{combine}'")


__all__ = ["COMBINE", "encode_letters", "first_occurrences", "letter_scores", "letter_shares", "reference_letter_score"]
