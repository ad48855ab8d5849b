"""docs/rules.md documents every option of every game: each option a game declares (its ``OPTIONS``,
which is what ``make_game`` accepts) has a row in the options table of that game's section, with its
declared default and, where the option declares its values, every one of them; and every row names
a declared option. An option that every game declares with one default may instead have its row in
the "All games" section. No option is skipped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tricksim
from tricksim.sim.game import Option

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
GENERAL = "All games"


def declared_options() -> dict[str, dict[str, Option]]:
    """Every game's option declaration, read from the game itself."""
    return {name: dict(type(tricksim.make_game(name)).OPTIONS) for name in tricksim.games()}


def sections(doc: str) -> dict[str, str]:
    """The text under each ``## `` heading, by heading."""
    parts = re.split(r"^## (.+)$", doc, flags=re.M)
    return {heading.strip(): body for heading, body in zip(parts[1::2], parts[2::2])}


def section_of(doc: str, game: str) -> str:
    """The section of ``game``: the one whose heading ends with ``(`game`)``."""
    found = [body for heading, body in sections(doc).items() if heading.endswith(f"(`{game}`)")]
    return found[0] if len(found) == 1 else ""


def option_rows(section: str) -> dict[str, tuple[str, str]]:
    """Option table rows of a section: name -> (values cell, default cell)."""
    rows = re.findall(r"^\|\s*`(\w+)`\s*\|([^|]*)\|([^|]*)\|", section, flags=re.M)
    return {name: (values.strip(), default.strip()) for name, values, default in rows}


def shown(value) -> str:
    """A value as the document writes it: ``false``, ``10 15 20 25 60``, ``leaster``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def documented_values(cell: str) -> set[str]:
    """The values a cell lists in backticks, with ranges such as ```2`–`9``` spelled out."""
    values = set(re.findall(r"`([^`]+)`", cell))
    for low, high in re.findall(r"`(\d+)`–`(\d+)`", cell):
        values |= {str(v) for v in range(int(low), int(high) + 1)}
    return values


def problems(doc: str, declared: dict[str, dict[str, Option]]) -> list[str]:
    """What docs/rules.md (the text ``doc``) fails to say about the ``declared`` options."""
    out = []
    general = option_rows(sections(doc).get(GENERAL, ""))
    for game, options in declared.items():
        section = section_of(doc, game)
        if not section:
            out.append(f"{game}: no section headed '... (`{game}`)'")
            continue
        rows = option_rows(section)
        for name, option in options.items():
            defaults = {shown(o[name].default) for o in declared.values() if name in o}
            shared = len(defaults) == 1 and all(name in o for o in declared.values())
            row = rows.get(name) or (general.get(name) if shared else None)
            if row is None:
                where = f" nor under {GENERAL}" if shared else ""
                out.append(f"{game}: option {name!r} has no row in its options table{where}")
                continue
            values, default = row
            if default.strip("`") != shown(option.default):
                out.append(f"{game}: {name} default is {shown(option.default)!r}, documented {default!r}")
            missing = {shown(c) for c in option.choices} - documented_values(values)
            if missing:
                out.append(f"{game}: {name} values {sorted(missing)} are not documented")
            if not values:
                out.append(f"{game}: {name} has no values documented")
        for name in rows:
            if name not in options:
                out.append(f"{game}: the table documents {name!r}, which is not an option of {game}")
    return out


def new_problems(doc: str, declared: dict[str, dict[str, Option]]) -> list[str]:
    """The problems of ``declared`` that the games' real declarations do not have (the page as it is)."""
    known = set(problems(DOC.read_text(encoding="utf-8"), declared_options()))
    return [p for p in problems(doc, declared) if p not in known]


def test_every_option_is_documented_with_its_default_and_values():
    found = problems(DOC.read_text(encoding="utf-8"), declared_options())
    assert not found, "docs/rules.md:\n" + "\n".join(found)


def test_every_game_has_a_section_with_an_options_table():
    doc = DOC.read_text(encoding="utf-8")
    for game in tricksim.games():
        assert option_rows(section_of(doc, game)), game


@pytest.mark.parametrize("change", ["new option", "new default", "new value"])
def test_an_undocumented_change_is_found(change):
    """The check fails when an option is added, or its default or values change, and the page is not."""
    declared = declared_options()
    options = declared["sheepshead"]
    if change == "new option":
        options["bury_size"] = Option(2, (2, 3), "cards buried")
    elif change == "new default":
        options["hands"] = Option(15, (), options["hands"].help)
    else:
        options["no_pick"] = Option("leaster", options["no_pick"].choices + ("schwanzer",), "")
    found = new_problems(DOC.read_text(encoding="utf-8"), declared)
    assert len(found) == 1 and found[0].startswith("sheepshead:"), found


def test_an_option_of_every_game_may_be_documented_once_under_all_games():
    declared = declared_options()
    for options in declared.values():
        options["limit"] = Option(0, (), "a shared option")
    doc = DOC.read_text(encoding="utf-8")
    assert len(new_problems(doc, declared)) == len(declared)  # undocumented in every game
    general_row = "\n| `limit` | a whole number | `0` | a shared option |\n"
    documented = doc.replace(f"## {GENERAL}\n", f"## {GENERAL}\n{general_row}", 1)
    assert new_problems(documented, declared) == []
    declared["bluke"]["limit"] = Option(5, (), "")  # defaults differ: each game's own table then
    assert len(new_problems(documented, declared)) == len(declared)
