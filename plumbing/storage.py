"""Everything the project keeps on disk: atomic writes, checked output places, read-or-build caches, provenance.

Writes go to a temporary file in the same folder, then a rename, so a reader never sees
half a file. A cache file is one header line naming the format, then a JSON line with
its kind, key, code version, payload length and SHA-256, then the payload. The key
holds what the value is computed from (the word lists' checksum, the mode, ...); the
code version is a digest of the source of the module that computes it and of every
project module that module imports, followed through the imports, so changing the code
that produces a cache retires it without a number to bump by hand. A cache file that is
missing, cut short, damaged, or made for other lists or other code is rebuilt; one that
is not a regular file (a FIFO, a folder) is refused in one line, since reading it could
hang. Where the cache folder cannot be written, the value is kept in memory for the rest
of the process (and the processes it forks), with one warning.

Provenance is what every results file records about where it came from: the command,
seed and word-list checksum (`word_lists_sha256`, the one spelling), the commit and
whether the code had uncommitted changes, library versions, and the machine.
"""

from __future__ import annotations

import ast
import errno
import functools
import hashlib
import importlib
import importlib.util
import json
import os
import pickle
import platform
import stat
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from .errors import UserError, clip

T = TypeVar("T")

#: The first line of every cache file; bumped when the layout of the file itself changes.
CACHE_MAGIC = b"wordle-arena cache v1\n"
#: Packages whose source makes up a cache's code version (the layers a cache can be computed in).
PROJECT_PACKAGES = ("search", "wordle", "plumbing", "heuristics", "agents")
#: Libraries whose versions can change a result's numbers or files.
LIBRARIES = ("numpy", "scipy", "rich", "wordle-arena")
#: The key under which results files record the word lists' checksum.
WORD_LISTS_KEY = "word_lists_sha256"


class CacheWarning(UserWarning):
    """A cache that could not be kept on disk: the value lives in memory for this run only."""


# -- writing ------------------------------------------------------------------------------
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


def _reason(error: OSError) -> str:
    """An OSError's reason in a few words."""
    return error.strerror or error.__class__.__name__


def append_json_line(path: str | Path, record: Any, separators: tuple[str, str] = (",", ":")) -> None:
    """Append one JSON line to `path` and push it to the disk (a journal a killed run resumes from).

    Args:
        path: the file, created if missing.
        record: what to write, as one line of JSON.
        separators: json.dumps's item and key separators (the compact ones unless a format fixed others).
    """
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(record, separators=separators) + "\n")
        out.flush()
        os.fsync(out.fileno())


def check_writable(folder: Path) -> None:
    """UserError unless a file can be created in `folder` (tried for real: permissions, read-only disks)."""
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".write-check.", suffix=".tmp")
    except OSError as error:
        raise UserError(f"{folder}: cannot write in this folder ({_reason(error)})") from None
    os.close(handle)
    os.unlink(probe)


def prepare_output(path: str | Path, suffixes: tuple[str, ...] = (), make_folder: bool = True) -> Path:
    """Check, before any work is done, that `path` can take an output file; make its folder if missing.

    Raises:
        UserError: a wrong suffix, a path that is a folder, or a folder that cannot be made or written
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
        raise UserError(f"{path}: cannot write there ({_reason(error)})") from None
    check_writable(path.parent)
    return path


def prepare_folder(path: str | Path) -> Path:
    """Check, before any work is done, that `path` is or can be made a folder to write in; UserError otherwise."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} exists and is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{path}: cannot make a folder there ({_reason(error)})") from None
    check_writable(path)
    return path


def check_outputs(paths: Iterable[Path], fix: str) -> None:
    """Pre-flight of the files a command will write, before its work: each must be a regular file or absent.

    Raises:
        UserError: a folder, FIFO or other non-file stands where one of `paths` will be written (`fix` says
            what to do), or one of their folders cannot be made or written.
    """
    for path in paths:
        if os.path.lexists(path) and not path.is_file():
            raise UserError(f"{path} is not a regular file (a folder, FIFO or the like) where this command writes one; "
                            f"{fix}")
        prepare_folder(path.parent)


# -- one writer per folder ----------------------------------------------------------------
class FolderBusy(UserError):
    """A folder another process holds; `holder` says which (pid, started), as far as it wrote it."""

    def __init__(self, folder: Path, holder: dict[str, Any]):
        """The message names the folder and what the holder wrote of itself."""
        self.folder, self.holder = folder, holder
        who = ", ".join(f"{key} {holder[key]}" for key in ("pid", "started") if key in holder) or "details unknown"
        super().__init__(f"{folder} is in use by another run ({who})")


#: File descriptors of the folder locks this process holds; a forked child closes its copies.
_HELD_LOCKS: set[int] = set()


def _close_inherited_locks() -> None:
    """In a forked child: close the copies of the parent's lock files (the parent keeps its locks)."""
    for handle in list(_HELD_LOCKS):
        try:
            os.close(handle)
        except OSError:
            pass
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_close_inherited_locks)


class FolderLock:
    """An OS lock (flock) on `folder/.lock`, held while one process writes the folder.

    The lock dies with its process, so a run that was killed never blocks the next one;
    the file says who holds it (pid and start time) and is removed on release.
    """

    NAME = ".lock"

    def __init__(self, folder: str | Path):
        """The lock of `folder`, not yet taken."""
        self.path = Path(folder) / self.NAME
        self.handle: int | None = None

    def acquire(self, started: str) -> None:
        """Take the lock or raise FolderBusy naming its holder; `started` is written beside this pid."""
        import fcntl

        while True:
            try:
                handle = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW, 0o666)
            except IsADirectoryError:
                raise UserError(f"{self.path} is a folder where the run's lock file belongs; remove it") from None
            except OSError as error:
                raise UserError(f"{self.path}: cannot be opened ({_reason(error)})") from None
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                os.close(handle)
                raise UserError(f"{self.path} is not a regular file (a FIFO, device or socket) where the run's "
                                "lock file belongs; remove it")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = read_regular_file(self.path) or b""
                os.close(handle)
                try:
                    details = json.loads(holder.decode("utf-8")) if holder else {}
                except ValueError:
                    details = {}
                raise FolderBusy(self.path.parent, details if isinstance(details, dict) else {}) from None
            try:  # a releasing holder may have removed the file between our open and our lock: lock the new one
                same = os.path.samestat(os.fstat(handle), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(handle)
        os.ftruncate(handle, 0)
        os.write(handle, json.dumps({"pid": os.getpid(), "started": started}).encode())
        self.handle = handle
        _HELD_LOCKS.add(handle)

    def release(self) -> None:
        """Remove the lock file and let the lock go."""
        if self.handle is not None:
            self.path.unlink(missing_ok=True)
            _HELD_LOCKS.discard(self.handle)
            os.close(self.handle)
            self.handle = None


# -- reading ------------------------------------------------------------------------------
class NotRegularFile(UserError):
    """A folder, FIFO, device or socket where a file belongs."""


#: The largest results file read (games.csv of every agent on every answer in both modes is a few MB).
MOST_FILE_BYTES = 256 * 1024 * 1024


def read_regular_file(path: Path, most: int = MOST_FILE_BYTES) -> bytes | None:
    """The bytes of `path`, None if it is missing or unreadable; UserError if it is not a regular file or too large.

    The file is opened without blocking and checked before it is read, so a FIFO put where
    a file belongs is refused instead of hanging the command. Every results file (summary,
    games, journal, report, lock) is read here.
    """
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except IsADirectoryError:
        raise NotRegularFile(f"{path} is a folder where a file belongs; remove it") from None
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            raise UserError(f"{clip(str(path), 80)}: the path is too long for this system") from None
        return None
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise NotRegularFile(f"{path} is a folder where a file belongs; remove it")
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"{path} is not a regular file (a FIFO, device or socket); remove it")
        if info.st_size > most:
            raise UserError(f"{path} is {info.st_size} bytes, more than the {most} a file of this kind can be")
        with os.fdopen(handle, "rb", closefd=False) as source:
            data = source.read(most + 1)
        if len(data) > most:
            raise UserError(f"{path} is more than the {most} bytes a file of this kind can be")
        return data
    except OSError:
        return None
    finally:
        os.close(handle)


def read_text_file(path: Path, most: int = MOST_FILE_BYTES) -> str:
    """The UTF-8 text of `path`, refused as read_regular_file refuses (UserError past `most` bytes or not a regular
    file); OSError when missing or unreadable, UnicodeDecodeError when not UTF-8."""
    data = read_regular_file(path, most)
    if data is None:
        raise FileNotFoundError(errno.ENOENT, "missing or unreadable", str(path))
    return data.decode("utf-8")


# -- code versions ------------------------------------------------------------------------
def _module_file(name: str) -> Path | None:
    """The source file of a project module, or None if it has none."""
    found = importlib.util.find_spec(name)
    return Path(found.origin) if found is not None and found.origin and found.origin.endswith(".py") else None


def _is_module(name: str) -> bool:
    """Whether `name` names an importable module."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _imported_modules(name: str, wanted: tuple[str, ...] | None = None) -> set[str]:
    """The project modules module `name` imports; with `wanted`, only those defining these names (re-exports followed)."""
    path = _module_file(name)
    if path is None:
        return set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and wanted is None:
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] in PROJECT_PACKAGES)
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level \
                else node.module or ""
            if base.split(".")[0] not in PROJECT_PACKAGES:
                continue
            for alias in node.names:
                if wanted is not None and (alias.asname or alias.name) not in wanted:
                    continue
                found.update(_defining_modules(base, alias.name))
    return found


def _defining_modules(base: str, name: str) -> set[str]:
    """The module(s) `from base import name` takes code from: a submodule, base itself, or where base re-exports it from."""
    if _is_module(f"{base}.{name}"):
        return {f"{base}.{name}"}
    path = _module_file(base)
    if path is not None and path.name == "__init__.py":
        return _imported_modules(base, (name,)) or {base}
    return {base}


def _closure(name: str) -> list[str]:
    """`name` and every project module it imports, followed through their imports (the storage module left out)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        if current in seen or current == __name__:
            continue
        seen.add(current)
        todo.extend(_imported_modules(current) - seen)
    return sorted(seen)


@functools.lru_cache(maxsize=None)
def code_version(module: str) -> str:
    """SHA-256 over the source of module `module` and of every project module it imports, transitively.

    A change to any code that can affect what the module computes changes the version;
    the storage module itself is left out (its file layout has CACHE_MAGIC).
    """
    digest = hashlib.sha256()
    for name in _closure(module):
        path = _module_file(name)
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path is not None else b"") + b"\0")
    return digest.hexdigest()


# -- caches -------------------------------------------------------------------------------
def cache_dir() -> Path:
    """Where caches live: $WORDLE_ARENA_CACHE, else the user cache directory."""
    if configured := os.environ.get("WORDLE_ARENA_CACHE"):
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "wordle-arena"


def keep_numba_cache() -> Path:
    """Keep numba's compiled-code cache with the other caches (not in the source tree), and mend its damage.

    numba reads its cache folder from $NUMBA_CACHE_DIR when it is first imported, so the solver
    calls this just before it imports numba (wordle.solver), never on import. An index file (.nbi) that numba could not read (emptied, cut
    short) would raise in the middle of a command; it is removed, so numba compiles again.
    """
    folder = Path(os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir() / "numba")))
    try:
        indexes = list(folder.rglob("*.nbi")) if folder.is_dir() else []
    except OSError:
        return folder
    for index in indexes:
        try:
            with open(index, "rb") as source:
                pickle.load(source)
                pickle.loads(source.read())
        except Exception:  # noqa: BLE001 - whatever numba would choke on: compile again instead
            for stale in (index, *index.parent.glob(index.stem + "*.nbc")):
                stale.unlink(missing_ok=True)
    return folder


@dataclass(frozen=True)
class Cache:
    """One cached value: what it is, what it is computed from, and the code that computes it.

    Attributes:
        kind: a short name, the start of the file name ("patterns", "frequencies", "two-step").
        key: JSON data naming the inputs (word-list checksum, mode, ...).
        code: the code version (see `code_version`).
        suffix: the file name's ending.
        most_bytes: the largest file this cache reads back; a value whose file would be larger is never written
            (a large array's cache names its own size, so every file it writes is one it can read).
    """

    kind: str
    key: dict[str, Any]
    code: str
    suffix: str = ".bin"
    most_bytes: int = field(default=MOST_FILE_BYTES, compare=False)

    def identity(self) -> dict[str, Any]:
        """What a cache file must record to be this cache."""
        return {"kind": self.kind, "key": self.key, "code": self.code}

    def path(self, directory: Path | None = None) -> Path:
        """The cache file: kind, then a digest of kind, key and code version."""
        digest = hashlib.sha256(json.dumps(self.identity(), sort_keys=True).encode()).hexdigest()
        return (directory or cache_dir()) / f"{self.kind}-{digest[:32]}{self.suffix}"

    def header(self, payload: bytes) -> bytes:
        """The two header lines of a file holding `payload`."""
        meta = {**self.identity(), "bytes": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}
        return CACHE_MAGIC + json.dumps(meta, sort_keys=True).encode() + b"\n"

    def read(self, directory: Path | None = None, view: bool = False) -> bytes | memoryview | None:
        """The payload if the file is whole, checks out and was made for this key and code; else None.

        `view`: the payload as a read-only memoryview of the file's bytes, not a copy (a large array's cache).

        Raises:
            UserError: something that is not a regular file sits where the cache belongs.
        """
        blob = read_regular_file(self.path(directory), self.most_bytes)
        if blob is None or not blob.startswith(CACHE_MAGIC):
            return None
        meta_end = blob.find(b"\n", len(CACHE_MAGIC))
        try:
            meta = json.loads(blob[len(CACHE_MAGIC):meta_end]) if meta_end > 0 else None
        except ValueError:
            return None
        payload = memoryview(blob)[meta_end + 1:]
        if not isinstance(meta, dict) or {k: meta.get(k) for k in ("kind", "key", "code")} != self.identity():
            return None
        if meta.get("bytes") != len(payload) or meta.get("sha256") != hashlib.sha256(payload).hexdigest():
            return None
        return payload if view else payload.tobytes()

    def write(self, payload: bytes, directory: Path | None = None) -> None:
        """Write the file atomically; OSError if the folder cannot take it, or if the file would be larger than this
        cache reads back (`most_bytes`)."""
        blob = self.header(payload) + payload
        if len(blob) > self.most_bytes:
            raise OSError(errno.EFBIG, f"{len(blob)} bytes, more than the {self.most_bytes} this cache reads back")
        write_atomically(self.path(directory), blob)


#: Values whose cache file could not be written, by path: kept for this process and its forks.
_IN_MEMORY: dict[Path, Any] = {}


def read_or_build(cache: Cache, build: Callable[[], T], encode: Callable[[T], bytes],
                  decode: Callable[[bytes], T | None], directory: Path | None = None, use_cache: bool = True,
                  view: bool = False) -> T:
    """The cached value, or `build()` then cached; never trusted blindly.

    Args:
        cache: which value.
        build: computes it.
        encode: the value as the payload bytes.
        decode: the value from payload bytes, or None where they do not make a valid value.
        directory: the cache folder (default `cache_dir()`).
        use_cache: False builds without reading or writing any file.
        view: `decode` is given a read-only memoryview of the file's bytes, not a copy (see Cache.read).

    Returns:
        The value. Where the file cannot be written the value is kept in memory, so
        this process and the processes it forks afterwards compute it once, and one
        CacheWarning says so.
    """
    if not use_cache:
        return build()
    path = cache.path(directory)
    if path in _IN_MEMORY:
        return _IN_MEMORY[path]
    payload = cache.read(directory, view)
    if payload is not None:
        try:
            value = decode(payload)
        except (ValueError, KeyError, TypeError, IndexError):
            value = None
        if value is not None:
            return value
    value = build()
    try:
        cache.write(encode(value), directory)
    except OSError as error:
        _IN_MEMORY[path] = value
        warnings.warn(f"cannot keep the {cache.kind} cache in {path.parent} ({_reason(error)}); "
                      "it is kept in memory for this run only and computed again next time",
                      CacheWarning, stacklevel=2)
    return value


def json_payload(data: Any) -> bytes:
    """JSON data as cache payload bytes."""
    return json.dumps(data, sort_keys=True).encode("utf-8")


def json_value(payload: bytes) -> Any:
    """JSON data from cache payload bytes (ValueError if they are not JSON)."""
    return json.loads(payload.decode("utf-8"))


# -- provenance ---------------------------------------------------------------------------
def _git(*arguments: str) -> str | None:
    """Output of a git command run in the project folder, or None if git is unavailable."""
    try:
        done = subprocess.run(
            ["git", *arguments], cwd=Path(__file__).resolve().parent.parent,
            capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _version(library: str) -> str:
    """Installed version of a distribution, or 'not installed'."""
    try:
        return metadata.version(library)
    except metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), else what the platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    """The machine a result was made on: CPU model, logical cores, operating system."""
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "system": f"{platform.system()} {platform.machine()}"}


@functools.lru_cache(maxsize=1)
def provenance() -> dict[str, Any]:
    """The commit (with whether the code, anything outside results/ but the shipped models, had uncommitted changes),
    versions and machine.

    Computed once per process, so every file one run writes records the same values.

    Returns:
        {"commit": hash or "unknown", "dirty": bool or None, "versions": {library: version},
        "machine": {"cpu", "cores", "system"}}.
    """
    # A copy of the tree sent to another machine, whose .git (if any) is not the tree's: the commit it was copied at,
    # as the copier says; whether it was dirty is unknown there.
    copied = os.environ.get("WORDLE_ARENA_COMMIT")
    commit = copied or _git("rev-parse", "HEAD")
    # Results files do not change results: a benchmark rewriting one must not mark the next run dirty. The
    # learners' models in results/models/ do: a changed model plays other games.
    status = None if copied else _git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)results")
    if status is not None:
        models = _git("status", "--porcelain", "--untracked-files=no", "--", "results/models")
        status = None if models is None else status + models
    versions = {"python": sys.version.split()[0]}
    versions.update({library: _version(library) for library in LIBRARIES})
    return {
        "commit": commit or "unknown",
        "dirty": None if status is None else bool(status),
        "versions": versions,
        "machine": machine(),
    }


def results_record(command: str, seed: int | None, word_lists_sha256: str) -> dict[str, Any]:
    """The head of a results file: command, seed, word-list checksum, then the provenance."""
    return {"command": command, "seed": seed, WORD_LISTS_KEY: word_lists_sha256, **provenance()}
