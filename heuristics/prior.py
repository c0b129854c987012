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
computed once per guess list and kept in a disk cache beside the pattern matrix,
re-validated when read, so agents start without importing wordfreq.

>>> float(sigmoid_prior(np.array([PRIOR_CENTER]))[0])
0.5
"""

from __future__ import annotations

import hashlib
import json
from importlib import metadata
from pathlib import Path

import numpy as np

from search.files import write_atomically
from search.matrix import cache_dir

#: The rank at which the prior is one half.
PRIOR_CENTER = 4500.0
#: Ranks per e-fold of the odds: the sigmoid's steepness.
PRIOR_WIDTH = 500.0
#: Bumped whenever the cache file's meaning changes.
CACHE_FORMAT = "wordle-arena word frequencies v1"


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
    """SHA-256 of a word list, naming its cache file."""
    return hashlib.sha256("\n".join(words).encode()).hexdigest()


def frequency_cache_path(words: tuple[str, ...] | list[str], directory: Path | None = None) -> Path:
    """The cache file holding the frequencies of one word list."""
    return (directory or cache_dir()) / f"frequencies-{_list_digest(words)[:32]}.json"


def _read_cache(path: Path, words: tuple[str, ...] | list[str]) -> np.ndarray | None:
    """Cached frequencies if the file is whole and matches the list and wordfreq version, else None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if (data["format"], data["wordfreq"], data["list"]) != (CACHE_FORMAT, _wordfreq_version(), _list_digest(words)):
            return None
        values = np.array(data["zipf"], dtype=np.float64)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if values.shape != (len(words),) or not np.all(np.isfinite(values)) or np.any(values < 0):
        return None
    return values


def _write_cache(path: Path, words: tuple[str, ...] | list[str], values: np.ndarray) -> None:
    """Write the cache atomically (temporary file, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": CACHE_FORMAT, "wordfreq": _wordfreq_version(), "list": _list_digest(words),
            "zipf": [round(float(value), 4) for value in values]}
    write_atomically(path, json.dumps(data))


def cached_frequencies(words: tuple[str, ...] | list[str], directory: Path | None = None) -> np.ndarray:
    """The Zipf frequencies of `words`, from the disk cache or computed with wordfreq and then cached.

    A missing, corrupt or stale cache file is recomputed; a folder that cannot be
    written only costs the recomputation next time.
    """
    path = frequency_cache_path(words, directory)
    if (cached := _read_cache(path, words)) is not None:
        return cached
    values = np.round(zipf_frequencies(words), 4)
    try:
        _write_cache(path, words, values)
    except OSError:
        pass
    return values


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
