"""Writing files so that a reader never sees half of one: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import UserError


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Replace `path` with `data` in one step; on any failure the old file (if any) is left as it was.

    Text is written as UTF-8 without newline translation. The file gets the usual
    permissions (0666 less the umask), not mkstemp's private 0600.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def prepare_output(path: str | Path, suffixes: tuple[str, ...] = (), make_folder: bool = True) -> Path:
    """Check, before any work is done, that `path` can take an output file; make its folder if missing.

    Raises:
        UserError: a wrong suffix, a path that is a folder, or a folder that cannot be made
            (or, with make_folder False, a folder that does not exist).
    """
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise UserError(f"{path}: the file must end in {' or '.join(suffixes)}")
    if path.is_dir():
        raise UserError(f"{path} is a folder; give a file name")
    if any(parent.exists() and not parent.is_dir() for parent in path.parents):
        raise UserError(f"{path}: part of its folder path is a file, not a folder")
    if not make_folder and not path.parent.is_dir():
        raise UserError(f"{path}: the folder {path.parent} does not exist; make it first")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{path}: cannot write there ({error.strerror or error.__class__.__name__})") from None
    return path


def prepare_folder(path: str | Path) -> Path:
    """Check, before any work is done, that `path` is or can be made a folder to write in; UserError otherwise."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{path}: cannot make a folder there ({error.strerror or error.__class__.__name__})") from None
    return path
