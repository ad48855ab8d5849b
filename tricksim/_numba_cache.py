"""Key numba's on-disk cache of tricksim's kernels on the sources they are compiled from.

numba stamps a cached function with its own source file only, but our kernels
inline functions from other modules (``kernels.py``, ``actions.py``, the
agents): an edit there would leave callers running the old code from the cache.
Here every tricksim function's cache is stamped with one hash of the modules that
define kernels and every tricksim module they import (``compiled_sources``), so a
change to any of them recompiles, while an edit to the pure-Python layers (the
command line, records, reports) keeps the cache.

numba numbers a function's cached overloads 1, 2, … in an index that each process reads, extends
and writes back: two processes compiling at once (a study and the tests, say) can give two
signatures the same number, and the index then points one signature at the other's machine code,
which runs with the wrong types (wrong results, or a crash). Here a cached overload's file is
named by the stamp and its own key instead, so processes can only lose each other's index
entries (a kernel compiled again), never swap them.

numba names a compiled function's machine code by its qualified name, its argument types and an id
counted 1, 2, … in each process. Two processes can then give one name to two different functions
of one qualified name (the closures of ``agents.family`` or an overload's ``impl``, one per game or
generic call, with the same arguments); a process that loads both from the cache links every
call of that name to one of them, and a kernel runs another's code (the likely cause of a
Sheepshead solver that misjudged its endings after a warm-up on two processes). Here the ids are
random 64-bit numbers instead (``_RandomIds``), so names never meet across processes.
"""

from __future__ import annotations

import glob
import hashlib
import re
import secrets
import warnings
from pathlib import Path

from numba.core import bytecode, caching

ROOT = Path(__file__).resolve().parent
_KERNEL = re.compile(r"@(?:nb\.|numba\.)?(?:njit|jit|overload|generated_jit)\b|\b(?:njit|overload)\(")


def _module_path(name: str) -> Path | None:
    """The source file of the tricksim module ``name`` (dotted, below the package), if any."""
    base = ROOT.joinpath(*name.split(".")) if name else ROOT
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+(\([^)]*\)|[^\n]*)", re.M)


def _imports(path: Path, source: str) -> set[Path]:
    """The tricksim modules that the module at ``path`` (its text ``source``) imports, at its top
    or inside a function (a regular expression over the text: ``ast`` takes 0.2 s over the package)."""
    package = path.parent.relative_to(ROOT).parts
    found = set()
    for dots, module, names in _FROM.findall(source):
        if dots:
            parts = list(package[:len(package) - len(dots) + 1]) + module.split(".")
        elif module.split(".")[0] == "tricksim":
            parts = module.split(".")[1:]
        else:
            continue
        parts = [p for p in parts if p]
        names = re.sub(r"#[^\n]*", "", names).strip().strip("()").replace("\n", ",").split(",")
        names = [n.split(" as ")[0].strip() for n in names]
        candidates = [".".join(parts)] + [".".join(parts + [n]) for n in names if n.isidentifier()]
        found |= {p for p in map(_module_path, candidates) if p is not None}
    return found


def compiled_sources() -> list[Path]:
    """The modules that define numba kernels, with every tricksim module they import (transitively)."""
    sources = {path: path.read_text() for path in ROOT.rglob("*.py")}
    todo = [path for path, source in sources.items() if _KERNEL.search(source)]
    seen = set()
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(_imports(path, sources[path]) - seen)
    return sorted(seen)


# part of the stamp: code cached before the ids were random may share names across processes
ID_SCHEME = b"random function ids"


def _package_stamp() -> str:
    digest = hashlib.sha256(ID_SCHEME)
    for path in compiled_sources():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


STAMP = _package_stamp()


def _package_locator(base):
    class PackageLocator(base):
        def get_source_stamp(self):
            return STAMP

        @classmethod
        def from_function(cls, py_func, py_file):
            if not Path(py_file).resolve().is_relative_to(ROOT):
                return None
            return super().from_function(py_func, py_file)

    PackageLocator.__name__ = f"Tricksim{base.__name__}"
    return PackageLocator


def _keyed_save(numba_save):
    def save(self, key, data):
        if self._source_stamp != STAMP:  # another library's cache: numba's own way
            return numba_save(self, key, data)
        base = self._index_name[:-len(".nbi")]
        name = f"{base}.{STAMP[:12]}-{hashlib.sha256(str(key).encode()).hexdigest()[:16]}.nbc"
        self._save_data(name, data)  # before the index, so that the index never names a missing file
        overloads = self._load_index()
        overloads[key] = name
        self._save_index(overloads)
        for stale in Path(self._cache_path).glob(f"{glob.escape(base)}.*.nbc"):
            if not stale.name.startswith(f"{base}.{STAMP[:12]}-"):  # earlier sources' code
                stale.unlink(missing_ok=True)

    save.tricksim = True
    return save


class _RandomIds:
    """numba's function ids (``FunctionIdentity._unique_ids``), drawn at random instead of counted."""

    def __iter__(self):
        return self

    def __next__(self) -> int:
        return secrets.randbits(64)


def install() -> None:
    """Put the package-stamped locators ahead of numba's own, name cached files by key, and draw
    function ids at random (once)."""
    if not isinstance(getattr(bytecode.FunctionIdentity, "_unique_ids", None), _RandomIds):
        bytecode.FunctionIdentity._unique_ids = _RandomIds()
    try:
        bases = (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        classes = impl._locator_classes
        cache_file = caching.IndexDataCacheFile
        cache_file.save, cache_file._save_data, cache_file._load_index, cache_file._save_index  # noqa: B018
    except AttributeError:  # a numba whose cache internals differ: keep its per-file stamps
        warnings.warn("tricksim: numba's cache locators changed; cached kernels are stamped per file")
        return
    if not any(getattr(c, "__name__", "").startswith("Tricksim") for c in classes):
        classes[:0] = [_package_locator(base) for base in bases]
    if not getattr(cache_file.save, "tricksim", False):
        cache_file.save = _keyed_save(cache_file.save)


install()
