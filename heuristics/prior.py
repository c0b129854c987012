"""How likely a word is to be a Wordle answer, judged by how common it is in English.

The prior of a word is a sigmoid over its frequency rank:

    prior(word) = 1 / (1 + exp((rank(word) - PRIOR_CENTER) / PRIOR_WIDTH))

where rank is the word's 0-based position in the guess list sorted by descending
English frequency (the `wordfreq` library's Zipf frequency, its large English list);
words of equal frequency share the rank of the first of them, so every word that
wordfreq does not know shares the last rank. With the centre at rank 4500 and a width
of 500 ranks, the 4000 commonest guesses get a prior above 0.7 and a word unknown to
wordfreq about 1e-4. On the official lists, 95% of the 2315 answers rank within the
first 4555 guesses, so the centre sits where the answers thin out.

Frequencies come from the wordfreq package's own data files (no network); they are
computed once per guess list and kept in a checksummed disk cache (plumbing.storage)
beside the pattern matrix, so agents start without importing wordfreq.

>>> float(sigmoid_prior(np.array([PRIOR_CENTER]))[0])
0.5
"""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

import numpy as np

from plumbing.storage import Cache, code_version, json_payload, json_value, read_or_build

#: The rank at which the prior is one half.
PRIOR_CENTER = 4500.0
#: Ranks per e-fold of the odds: the sigmoid's steepness.
PRIOR_WIDTH = 500.0


def frequency_ranks(frequencies: np.ndarray) -> np.ndarray:
    """0-based rank of each word by descending frequency; equal frequencies share the first rank.

    >>> frequency_ranks(np.array([1.0, 3.0, 1.0, 0.0])).tolist()
    [1, 0, 1, 3]
    """
    frequencies = np.asarray(frequencies, dtype=np.float64)
    # How many words are strictly more frequent than each word.
    ordered = np.sort(frequencies)
    return (frequencies.size - np.searchsorted(ordered, frequencies, side="right")).astype(np.int64)


def sigmoid_prior(ranks: np.ndarray, center: float = PRIOR_CENTER, width: float = PRIOR_WIDTH) -> np.ndarray:
    """The prior of each rank: 1 / (1 + exp((rank - center) / width)).

    Args:
        ranks: frequency ranks, 0 for the commonest word.
        center: the rank whose prior is 0.5.
        width: ranks per e-fold of the odds (positive).

    Returns:
        Priors in (0, 1), decreasing with rank.
    """
    if width <= 0:
        raise ValueError(f"the sigmoid width must be positive, got {width}")
    exponent = np.clip((np.asarray(ranks, dtype=np.float64) - center) / width, -700.0, 700.0)
    return 1.0 / (1.0 + np.exp(exponent))


def zipf_frequencies(words: tuple[str, ...] | list[str]) -> np.ndarray:
    """wordfreq's Zipf frequency of each word in English (0 for a word it does not know)."""
    import wordfreq  # imported here: only a cache miss needs it

    return np.array([wordfreq.zipf_frequency(word, "en", wordlist="large") for word in words], dtype=np.float64)


def _wordfreq_version() -> str:
    """The installed wordfreq version, which names the frequencies a cache holds."""
    try:
        return metadata.version("wordfreq")
    except metadata.PackageNotFoundError:
        return "not installed"


def _list_digest(words: tuple[str, ...] | list[str]) -> str:
    """SHA-256 of a word list, naming its cache."""
    return hashlib.sha256("\n".join(words).encode()).hexdigest()


def frequency_cache(words: tuple[str, ...] | list[str]) -> Cache:
    """The cache of one list's frequencies, tied to the wordfreq version and the code that computes them."""
    return Cache("frequencies", {"list_sha256": _list_digest(words), "wordfreq": _wordfreq_version()},
                 code_version(__name__), suffix=".json")


def frequency_cache_path(words: tuple[str, ...] | list[str], directory: Path | None = None) -> Path:
    """The cache file holding the frequencies of one word list."""
    return frequency_cache(words).path(directory)


def _decode(payload: bytes, count: int) -> np.ndarray | None:
    """Frequencies from a cache payload, or None unless they are `count` finite non-negative numbers."""
    values = np.array(json_value(payload), dtype=np.float64)
    if values.shape != (count,) or not np.all(np.isfinite(values)) or np.any(values < 0):
        return None
    return values


def cached_frequencies(words: tuple[str, ...] | list[str], directory: Path | None = None) -> np.ndarray:
    """The Zipf frequencies of `words`, from the disk cache or computed with wordfreq and then cached.

    A missing, corrupt or stale cache file is recomputed; a folder that cannot be
    written only costs the recomputation next time (and one warning).
    """
    return read_or_build(frequency_cache(words), lambda: np.round(zipf_frequencies(words), 4),
                         lambda values: json_payload([round(float(value), 4) for value in values]),
                         lambda payload: _decode(payload, len(words)), directory)


def word_prior(words: tuple[str, ...] | list[str], center: float = PRIOR_CENTER, width: float = PRIOR_WIDTH,
               directory: Path | None = None) -> np.ndarray:
    """The prior of every word of a list (normally the guess list): sigmoid over its frequency rank.

    Args:
        words: the words to weigh; ranks are taken within this list.
        center, width: the sigmoid's parameters (see the module docstring).
        directory: the cache folder (default: the pattern matrix's).

    Returns:
        One prior in (0, 1) per word.
    """
    return sigmoid_prior(frequency_ranks(cached_frequencies(words, directory)), center, width)
