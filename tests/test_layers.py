"""The package's layers import in one direction, and nothing inside it imports the facade.

cards and errors (and the game list, ``spec``) <- rules (``sim``: the hand's kernels, what a seat
may see and its view, and how a state reads) <- agents <- the runner (``sim.batch``) <- the tools
(experiments, environments, training, records, play, the command line). A module may import its
own layer and those below; imports inside functions count too. The check reads the sources
(``ast``), so a new module is covered as soon as it exists: the test fails for a module that no
layer claims.
"""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

import pytest

import tricksim

ROOT = Path(tricksim.__file__).parent
LAYERS = [  # lowest first; each a list of module patterns
    ("base", ["tricksim.cards", "tricksim.errors", "tricksim.spec", "tricksim._numba_*"]),
    ("rules", ["tricksim.sim", "tricksim.sim.*", "tricksim.display"]),  # sim.observation, sim.obs_*, sim.view
    ("agents", ["tricksim.agents", "tricksim.agents.*"]),
    ("runner", ["tricksim.sim.batch", "tricksim.sim.cluster"]),
    ("tools", ["tricksim.experiments", "tricksim.experiments.*", "tricksim.envs", "tricksim.envs.*", "tricksim.rl",
               "tricksim.rl.*", "tricksim.records", "tricksim.play", "tricksim.cli", "tricksim.warmup",
               "tricksim.__main__"]),
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = ("tricksim",) + path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def layer(module: str) -> int:
    """The layer of ``module``: the most specific pattern that matches it (``sim.batch`` before ``sim.*``)."""
    best = None
    for rank, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if fnmatch.fnmatchcase(module, pattern) and (best is None or len(pattern) > best[0]):
                best = (len(pattern), rank)
    if best is None:
        raise LookupError(f"no layer claims {module}: add it to LAYERS in {Path(__file__).name}")
    return best[1]


def imports(module: str, path: Path | None = None) -> set[str]:
    """The tricksim modules ``module`` (its source at ``path``) imports; ``tricksim`` itself for a
    name from the facade."""
    path = path or MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "tricksim"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "tricksim":
                continue
            for alias in node.names:  # `from . import envs`: a module; `from .. import make_game`: the facade
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target)
    return found - {module}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "tricksim"))
def test_a_module_imports_only_its_layer_and_those_below(module):
    own = layer(module)
    above = sorted(m for m in imports(module) if m != "tricksim" and layer(m) > own)
    assert not above, f"{module} ({LAYERS[own][0]}) imports {above} from a layer above"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "tricksim"))
def test_nothing_inside_the_package_imports_the_facade(module):
    assert "tricksim" not in imports(module), f"{module} imports the package facade (tricksim/__init__.py)"


def test_the_check_sees_a_violation(tmp_path):
    """A rule module that imports an agent and the facade is caught, inside a function too."""
    source = tmp_path / "fake.py"
    source.write_text("from ..agents.random import uniform_action\n\ndef f():\n    from .. import make_game\n")
    found = imports("tricksim.sim.fake", source)
    assert found == {"tricksim.agents.random", "tricksim"}
    assert layer("tricksim.agents.random") > layer("tricksim.sim.fake")
    assert layer("tricksim.sim.batch") > layer("tricksim.agents.search") > layer("tricksim.sim.sheepshead")
    with pytest.raises(LookupError):
        layer("tricksim.somewhere")
