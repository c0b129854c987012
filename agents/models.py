"""Trained model files: numpy arrays plus a JSON header, checksummed, refused in one line when unusable.

A learner's model lives in `results/models/<learner>-<mode>.npz` (or under
`$WORDLE_ARENA_MODELS`). The header records how it was made (command, seed, training
time, machine) and the word lists' checksum; a SHA-256 over every array, and one over the
header itself, are stored in it and checked on loading, as is the zip's CRC of every member
(each is read to its end), so a damaged or edited file is refused rather than played.
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
from plumbing.storage import MOST_FILE_BYTES, cpu_model, write_atomically

#: Where shipped models live, unless $WORDLE_ARENA_MODELS says otherwise.
SHIPPED = Path(__file__).resolve().parents[1] / "results" / "models"
#: The header's key inside the .npz file.
HEADER = "header_json"
#: The header's field holding the SHA-256 of the rest of the header.
HEADER_DIGEST = "header_sha256"


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


def header_digest(header: dict[str, Any]) -> str:
    """SHA-256 over the header's canonical JSON (sorted keys), its own digest left out."""
    fields = {key: value for key, value in header.items() if key != HEADER_DIGEST}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def read_members(path: Path) -> dict[str, np.ndarray]:
    """Every member of an .npz file as an array, each read to its end so the zip's CRC of each is checked."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            arrays[name.removesuffix(".npy")] = np.lib.format.read_array(io.BytesIO(archive.read(name)),
                                                                         allow_pickle=False)
    return arrays


def machine() -> str:
    """The CPU model and core count, for the records."""
    return f"{cpu_model()}, {os.cpu_count()} cores"


def save_model(path: str | Path, arrays: dict[str, np.ndarray], header: dict[str, Any]) -> None:
    """Write arrays and header atomically; the header gains the arrays' checksum."""
    header = {**header, "arrays_sha256": arrays_digest(arrays)}
    header[HEADER_DIGEST] = header_digest(header)
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
    if path.stat().st_size > MOST_FILE_BYTES:
        raise ModelError(f"{path} is damaged ({path.stat().st_size} bytes, more than the {MOST_FILE_BYTES} a model "
                         f"can be); {fix}")
    try:
        arrays = read_members(path)
        header = json.loads(arrays.pop(HEADER).tobytes().decode())
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError, zlib.error,
            NotImplementedError) as error:  # NotImplementedError: a flipped "zip version" field
        raise ModelError(f"{path} is damaged ({error.__class__.__name__}); {fix}") from None
    if not isinstance(header, dict) or header.get(HEADER_DIGEST) != header_digest(header):
        raise ModelError(f"{path} is damaged (its header's checksum does not match); {fix}")
    if header.get("arrays_sha256") != arrays_digest(arrays):
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
