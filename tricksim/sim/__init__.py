"""The engine: every rule once, as numba functions over array state."""
