"""Key numba's on-disk cache of tricksim's kernels on all of tricksim's sources.

numba stamps a cached function with its own source file only, but our kernels
inline functions from other modules (``kernels.py``, ``actions.py``, the
agents): an edit there would leave callers running the old code from the cache.
Here every tricksim function's cache is stamped with one hash of the whole
package, so any change recompiles, and an unchanged package loads from cache.
"""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path

from numba.core import caching

ROOT = Path(__file__).resolve().parent


def _package_stamp() -> str:
    digest = hashlib.sha256()
    for path in sorted(ROOT.rglob("*.py")):
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


def install() -> None:
    """Put the package-stamped locators ahead of numba's own (once)."""
    try:
        bases = (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        classes = impl._locator_classes
    except AttributeError:  # a numba whose cache internals differ: keep its per-file stamps
        warnings.warn("tricksim: numba's cache locators changed; cached kernels are stamped per file")
        return
    if not any(getattr(c, "__name__", "").startswith("Tricksim") for c in classes):
        classes[:0] = [_package_locator(base) for base in bases]


install()
