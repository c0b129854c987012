"""Trained model files: numpy arrays plus a JSON header, checksummed, refused in one line when unusable.

A learner's model lives in `results/models/<learner>-<mode>.npz` (or under
`$WORDLE_ARENA_MODELS`). The header records how it was made (command, seed, training
time, machine) and the word lists' checksum; a SHA-256 over every array is stored in it
and checked on loading, so a damaged or edited file is refused rather than played.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from plumbing.errors import UserError, clip
from plumbing.storage import cpu_model, write_atomically

#: Where shipped models live, unless $WORDLE_ARENA_MODELS says otherwise.
SHIPPED = Path(__file__).resolve().parents[1] / "results" / "models"
#: The header's key inside the .npz file.
HEADER = "header_json"


class ModelError(UserError):
    """A model file that is missing, damaged, or made for other word lists or rules."""


def models_dir() -> Path:
    """The folder models are read from and written to."""
    return Path(os.environ.get("WORDLE_ARENA_MODELS") or SHIPPED)


def model_path(learner: str, hard: bool, folder: str | Path | None = None) -> Path:
    """The model file of `learner` for one mode."""
    return Path(folder or models_dir()) / f"{learner}-{'hard' if hard else 'normal'}.npz"


def train_command(learner: str, hard: bool) -> str:
    """The command that trains (or continues training) this model (a variant such as ppo-imitation by its --init)."""
    base, variant = learner.removesuffix("-imitation"), " --init imitation" if learner.endswith("-imitation") else ""
    return f"python cli.py train {base}{variant}{' --hard' if hard else ''}"


def arrays_digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 over every array's name, dtype, shape and bytes, in name order."""
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def machine() -> str:
    """The CPU model and core count, for the records."""
    return f"{cpu_model()}, {os.cpu_count()} cores"


def save_model(path: str | Path, arrays: dict[str, np.ndarray], header: dict[str, Any]) -> None:
    """Write arrays and header atomically; the header gains the arrays' checksum."""
    header = {**header, "arrays_sha256": arrays_digest(arrays)}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays, **{HEADER: np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)})
    write_atomically(path, buffer.getvalue())


def load_model(path: str | Path, learner: str, hard: bool, checksum: str | None = None,
               max_guesses: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and header of a model file, checked.

    Args:
        checksum: the word lists' checksum the model must have been trained on (None: not checked).
        max_guesses: the guess limit it must have been trained for (None: not checked).

    Raises:
        ModelError: missing, unreadable, damaged, or made for another learner, mode, lists or limit;
            the message names the `train` command.
    """
    path = Path(path)
    fix = f"train one with: {train_command(learner, hard)}"
    if not path.is_file():
        raise ModelError(f"no {learner} model at {path}; {fix}")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        header = json.loads(arrays.pop(HEADER).tobytes().decode())
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError, zlib.error) as error:
        raise ModelError(f"{path} is damaged ({error.__class__.__name__}); {fix}") from None
    if not isinstance(header, dict) or header.get("arrays_sha256") != arrays_digest(arrays):
        raise ModelError(f"{path} is damaged (checksum mismatch); {fix}")
    if header.get("learner") != learner or header.get("hard") != hard:
        held = f"{clip(str(header.get('learner')), 40)} model for {'hard' if header.get('hard') else 'normal'} mode"
        raise ModelError(f"{path} holds a {held}, not a {learner} model for {'hard' if hard else 'normal'} mode; "
                         f"{fix}")
    if checksum is not None and header.get("words_checksum") != checksum:
        raise ModelError(f"{path} was trained on other word lists; {fix} (with the same --answers/--guesses)")
    if max_guesses is not None and header.get("max_guesses") != max_guesses:
        raise ModelError(f"{path} was trained for {header.get('max_guesses')} guesses, not {max_guesses}; "
                         f"{fix} --max-guesses {max_guesses}")
    return arrays, header
