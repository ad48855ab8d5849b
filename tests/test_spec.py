"""The game interface (``tricksim.spec``): every game provides all of it, and every registry of
the package (games, agents, environments, summaries, studies, the command line) is made from the
one list of games, so a game registered later reaches all of them."""

from __future__ import annotations

from dataclasses import replace

import gymnasium
import pytest

import tricksim
from tricksim import spec
from tricksim.agents import agent_module
from tricksim.cli import build_parser, studied
from tricksim.envs import GYM_IDS
from tricksim.errors import OptionError
from tricksim.experiments.summary import game_of
from tricksim.sim.game import Game
from tricksim.sim.sheepshead_game import Sheepshead


@pytest.mark.parametrize("name", tricksim.games())
def test_every_game_provides_the_whole_interface(name):
    assert spec.missing(spec.spec(name)) == []


def test_missing_names_each_thing_a_part_lacks():
    broken = replace(spec.spec("bluke"), name="broken", search="tricksim.cards", game="tricksim.cards:CardSet")
    lacks = spec.missing(broken)
    assert {"search.sample", "search.same_side", "search.score_bounds"} <= set(lacks)
    assert "game: not a Game subclass" in lacks
    assert not [x for x in lacks if x.startswith(("rules.", "agent.", "observation.", "summary."))]
    bare = replace(spec.spec("bluke"), name="bare", game=f"{__name__}:Bare")
    assert spec.missing(bare) == [f"game.{name}" for name in spec.GAME_METHODS]


class Bare(Game):
    """A Game subclass that leaves to the base class what each game must say."""


@pytest.mark.parametrize("name", tricksim.games())
def test_each_registry_is_made_from_the_spec(name):
    game_spec = spec.spec(name)
    assert tricksim.make_game(name).name == name
    assert GYM_IDS[name] == game_spec.gym_id and game_spec.gym_id in gymnasium.registry
    assert agent_module(name) is game_spec.part("agent")
    assert name in studied(game_spec.decision)
    assert tricksim.make_game(name).family == game_spec.family


def test_families_number_the_rule_modules_in_order():
    assert [spec.spec(n).family for n in ("sheepshead", "fiftyfive", "shmear", "nesmear", "bluke")] == [0, 1, 2, 2, 3]
    assert spec.family_part(2, "rules") is spec.spec("nesmear").part("rules")


def test_a_frame_read_back_is_recognised_by_its_own_columns():
    for name in tricksim.games():
        df = tricksim.simulate(name, hands=20, agents="random", progress=False)
        df.attrs.clear()  # as read back from a Parquet file by another tool
        assert game_of(df) == name


class Sheep2(Sheepshead):
    """Sheepshead under another name: a game registered from outside the package."""

    name = "sheep2"
    title = "Sheepshead (again)"


@pytest.fixture
def sheep2():
    game = replace(spec.spec("sheepshead"), name="sheep2", game=f"{__name__}:Sheep2", gym_id="tricksim/Sheep2-v0")
    tricksim.register(game)
    yield game
    del spec._GAMES["sheep2"]  # leave the list as the other tests expect it
    del GYM_IDS["sheep2"]
    gymnasium.registry.pop(game.gym_id, None)


def test_a_registered_game_reaches_every_registry(sheep2):
    assert "sheep2" in tricksim.games()
    assert tricksim.make_game("sheep2").family == spec.spec("sheepshead").family  # its kernels are Sheepshead's
    df = tricksim.simulate("sheep2", hands=200, seed=3, agents="heuristic", progress=False)
    same = tricksim.simulate("sheepshead", hands=200, seed=3, agents="heuristic", progress=False)
    assert df.attrs["game"] == "sheep2" and df.equals(same)
    assert tricksim.summarize(df)["hands"] == 200
    env = gymnasium.make("tricksim/Sheep2-v0", opponents="random")
    env.reset(seed=1)
    assert "sheep2" in studied("pick")
    args = build_parser().parse_args(["study", "pick", "sheep2", "--hands", "10"])
    assert args.game == "sheep2"
    with pytest.raises(OptionError, match="already registered"):
        tricksim.register(sheep2)


def test_an_unknown_game_names_the_games():
    with pytest.raises(OptionError, match="no game 'euchre'; the games are bluke, fiftyfive"):
        tricksim.make_game("euchre")
