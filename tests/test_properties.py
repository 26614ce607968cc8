"""Nothing a user does crashes gota-arena (issue 20): property-based tests with
Hypothesis over what a user hands the package -- match commands and configs,
arena actions, replay bytes, policy and checkpoint bytes, BASIC sources.

Each property says what must hold for *any* input: the call works, or it raises
one of the package's typed errors (named per entry point, never a bare
Exception); a refused call leaves the state as it was (the state hash, the lanes'
hashes); observations stay finite and masks 0/1.

The examples are reproducible (``derandomize``) and sized so the whole file takes
about a minute on one slow core; GOTA_PROPERTY_SCALE=10 runs ten times as many
(a local hunt; a failure prints the example to paste into a regression test).
"""
import hashlib
import json
import os
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.control import currently_in_test_context  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from gota_arena import (  # noqa: E402
    ActionError, ArgumentRangeError, ArgumentTypeError, ConfigError, GotaIndexError, Match, MatchOverError,
    PluginError, ReplayError, Verb,
)
from gota_arena import basic, ability_name, class_name, item_name  # noqa: E402
from gota_arena.arena import Arena, HEAD_SIZES  # noqa: E402
from gota_arena.basic import BasicSyntaxError  # noqa: E402
from gota_arena.contract import MASK_SIZE, OBS_SIZE  # noqa: E402
from gota_arena.errors import config_keys  # noqa: E402
from gota_arena.replay import RecordingMatch, Replay, verify  # noqa: E402

settings.register_profile(
    "gota-properties",
    deadline=None,                  # a loaded CI core: time is bounded by max_examples, not per example
    derandomize=True,               # the same examples on every run and machine
    database=None,                  # no .hypothesis folder; failures print their example instead
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
PROFILE = settings.get_profile("gota-properties")
SCALE = float(os.environ.get("GOTA_PROPERTY_SCALE", "1"))


def examples(n: int) -> settings:
    return settings(PROFILE, max_examples=max(1, int(n * SCALE)))


ROOT = Path(__file__).resolve().parent.parent
BAS = ROOT / "plugins" / "gota_bundled" / "bas"

# ---- strategies ------------------------------------------------------------------------------------------
def mostly(usual, other, odds: int = 5):
    """``usual`` odds times in odds + 1, else ``other`` (one_of would be skewed by Hypothesis's
    swarm testing, which turns branches off for whole test cases); shrinks toward ``usual``."""
    return st.integers(0, odds).flatmap(lambda k: other if k == odds else usual)


INT32 = st.integers(-2**31, 2**31 - 1)
JUNK = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
                 st.binary(max_size=4), st.lists(st.integers(-3, 3), max_size=3), st.just(object()))
HASHABLE_JUNK = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.binary(max_size=3))
HALF_WORLD = 3_480_000                                   # world units from the map's centre to its edge
SMALL = st.integers(-3, 60)                              # slots, items, heads, seats: in range and just outside
ID = st.integers(95, 1300)                               # unit ids: heroes 100..109, spawned units from 1000
COORD = st.integers(-HALF_WORLD - 100_000, HALF_WORLD + 100_000)
ANY_INT = st.one_of(SMALL, INT32, st.integers(-2**70, 2**70))
VALUE = st.one_of(SMALL, ID, COORD, INT32)               # an argument as a program passes it
ARG = mostly(VALUE, st.one_of(st.integers(-2**70, 2**70), JUNK), odds=3)   # or anything
SEAT = mostly(st.integers(0, 9), st.one_of(st.integers(-2, 11), ARG))
VERB = mostly(st.one_of(st.integers(-2, 14), st.sampled_from([v.name.lower() for v in Verb]),
                        st.sampled_from(list(Verb))), ARG)
POINT = mostly(st.tuples(COORD, COORD), st.one_of(st.tuples(ANY_INT, ANY_INT), ARG), odds=3)


@st.composite
def command_args(draw):
    """target, x, z, slot, item as a program passes them; now and then one of them anything."""
    args = {"target": draw(st.one_of(ID, SMALL)), "x": draw(COORD), "z": draw(COORD), "slot": draw(SMALL),
            "item": draw(SMALL)}
    if draw(st.integers(0, 3)) == 3:
        args[draw(st.sampled_from(sorted(args)))] = draw(ARG)
    return args


class Blob(bytes):
    """File bytes that a failing example prints as their size, not their content."""

    def __repr__(self) -> str:
        return f"<{len(self)} bytes>"


def finite_and_binary(m: Match) -> None:
    """Every seat's observation is finite and its masks (conditional, flat) are 0/1."""
    for seat in range(10):
        assert np.isfinite(m.observe(seat)).all(), seat
        for flat in (False, True):
            mask = m.mask(seat, flat=flat)
            assert ((mask == 0) | (mask == 1)).all(), (seat, flat)


def heroes_and_stats(m: Match):
    return [m.hero(s) for s in range(10)], [m.seat_stats(s) for s in range(10)]


def fresh_match(seed: int, ticks: int) -> Match:
    m = Match(seed=seed, max_ticks=2400, bots={"red": "rusher", "blue": "puller"})
    if ticks:
        m.step(ticks)
    return m


# ---- match commands ------------------------------------------------------------------------------------------

@examples(100)
@given(seed=st.integers(0, 3), ticks=st.sampled_from([0, 300, 900]), seat=SEAT, verb=VERB, args=command_args())
def test_any_command_is_answered_or_refused_and_a_refusal_changes_nothing_played(seed, ticks, seat, verb, args):
    m = fresh_match(seed, ticks)
    before, units = m.hash(), m.units.copy()
    heroes, stats = heroes_and_stats(m)
    try:
        answer = m.command(seat, verb, **args)
    except (ArgumentRangeError, ArgumentTypeError) as error:
        event(f"raised {type(error).__name__}")
        assert m.hash() == before, "a command refused with an exception changes nothing"
        return
    assert isinstance(answer, ActionError)
    event("accepted" if answer == ActionError.OK else "refused by the game")
    if answer != ActionError.OK:
        # refused by the game: the seat's last_error and its command counters record it (they are
        # in the state hash, by design); nothing else changes, now or later
        assert m.units.tobytes() == units.tobytes()
        heroes2, stats2 = heroes_and_stats(m)
        for s in range(10):
            if s != seat:
                assert (heroes2[s], stats2[s]) == (heroes[s], stats[s])
        assert heroes2[seat].last_error == answer
        assert heroes2[seat].__dict__ | {"last_error": 0} == heroes[seat].__dict__ | {"last_error": 0}
        assert stats2[seat].invalid_actions == stats[seat].invalid_actions + 1
        assert stats2[seat].commands == stats[seat].commands + 1
        twin = fresh_match(seed, ticks)
        for _ in range(2):
            if m.over:
                break
            m.step(12)
            twin.step(12)
            assert m.units.tobytes() == twin.units.tobytes(), "a refused command changed the play"
    elif not m.over:
        m.step(6)
    finite_and_binary(m)


HELPERS = {
    "stop": lambda m, a: m.stop(a[0]),
    "walk": lambda m, a: m.walk(a[0], a[1], a[2]),
    "attack_move": lambda m, a: m.attack_move(a[0], a[1], a[2]),
    "attack": lambda m, a: m.attack(a[0], a[1]),
    "cast_target": lambda m, a: m.cast(a[0], a[1], target=a[2]),
    "cast_point": lambda m, a: m.cast(a[0], a[1], point=a[3]),
    "use_item": lambda m, a: m.use_item(a[0], a[1]),
    "use_item_at": lambda m, a: m.use_item(a[0], a[1], point=a[3]),
    "buy": lambda m, a: m.buy(a[0], a[1]),
    "level": lambda m, a: m.level(a[0], a[1]),
    "buyback": lambda m, a: m.buyback(a[0]),
    "act": lambda m, a: m.act(a[0], a[4]),
    "decode": lambda m, a: m.decode(a[0], a[4]),
    "observe": lambda m, a: m.observe(a[0]),
    "mask": lambda m, a: m.mask(a[0], flat=bool(a[1] == 1)),
    "hero": lambda m, a: m.hero(a[0]),
    "seat_stats": lambda m, a: m.seat_stats(a[0]),
    "spells": lambda m, a: m.spells(a[0]),
    "team_score": lambda m, a: m.team_score(a[0]),
    "vision": lambda m, a: m.vision(a[0]),
    "visible": lambda m, a: m.visible(a[0], a[1]),
    "set_hp": lambda m, a: m.set_hp(a[0], a[1]),
    "find_path": lambda m, a: m.find_path(a[3], a[3][::-1] if isinstance(a[3], tuple) else a[3]),
    "units_of": lambda m, a: m.units_of(kind=a[0], team=a[1]),
    "events": lambda m, a: m.events(a[0]),
    "step": lambda m, a: m.step(a[1]),
    "run": lambda m, a: m.run(a[1]),
    "reset": lambda m, a: m.reset(a[0]),
    "script_status": lambda m, a: m.script_status(a[0]),
    "script_log": lambda m, a: m.script_log(a[0]),
    "set_script": lambda m, a: m.set_script(a[0], a[2]),
}
HEADS = st.one_of(st.lists(st.integers(-2, 60), min_size=5, max_size=5),
                  hnp.arrays(st.sampled_from([np.int8, np.int32, np.int64, np.uint64, np.float32]), st.just((5,)),
                             elements=st.integers(0, 60)),
                  st.lists(ARG, max_size=6), ARG)


@examples(200)
@given(call=st.sampled_from(sorted(HELPERS)), args=st.tuples(SEAT, ARG, ARG, POINT, HEADS))
def test_any_match_call_works_or_raises_a_typed_error(call, args):
    m = fresh_match(1, 0)
    before = m.hash()
    try:
        HELPERS[call](m, args)
        event("worked")
    except (ArgumentRangeError, ArgumentTypeError, GotaIndexError, ConfigError) as error:
        event(f"raised {type(error).__name__}")
        assert m.hash() == before, f"{call} raised but changed the match"
    except MatchOverError:
        assert m.over
    if not m.over:
        finite_and_binary(m)


@pytest.mark.parametrize("call, error", [
    (lambda m: m.script_status(2**31), ArgumentRangeError),     # OverflowError from cffi before
    (lambda m: m.script_status(None), ArgumentTypeError),       # TypeError from int()
    (lambda m: m.script_log(""), ArgumentTypeError),            # ValueError from int()
    (lambda m: m.spells("green"), ArgumentRangeError),          # KeyError from Team[...]
    (lambda m: m.team_score("x"), ArgumentRangeError),
    (lambda m: m.act(0, [[1, 2], [3]]), ArgumentTypeError),     # ValueError from numpy (a ragged list)
    (lambda m: m.set_script(0, "no\x00such.bas"), ArgumentRangeError),   # ValueError: embedded null byte
])
def test_calls_that_the_properties_found_raising_untyped_errors(call, error):
    with Match(seed=1) as m:
        before = m.hash()
        with pytest.raises(error):
            call(m)
        assert m.hash() == before


@pytest.mark.parametrize("call", [lambda: class_name("x"), lambda: item_name(2**40), lambda: ability_name(None, 0)])
def test_name_lookups_refuse_what_is_not_an_integer(call):
    with pytest.raises((ArgumentTypeError, ArgumentRangeError)):
        call()


def test_a_ragged_action_list_is_refused_by_the_arena(arena):
    with pytest.raises(ArgumentTypeError, match="actions must be an int32 array"):
        arena.step([[0, 0, 0, 0, 0], [0]])


# ---- match configs ---------------------------------------------------------------------------------------------------
KEYS = config_keys()
RANGED = {"seed": st.integers(-2**31 - 2, 2**31 + 2), "max_ticks": st.integers(-2, 30000),
          "wave_interval": st.integers(-2, 30000), "heroes": st.integers(-1, 2), "upkeep": st.integers(-1, 2)}
BOT_NAMES = ["external", "idle", "random", "base", "rusher", "baseline", "puller", "nobody", "", " Base "]
CONFIG_VALUE = st.one_of(st.integers(-2, 12), st.integers(-2**63 - 1, 2**63), st.integers(-2**80, 2**80), JUNK)
BOTS = st.dictionaries(st.one_of(st.sampled_from(["red", "blue", "Red ", "green"]), st.integers(-1, 10), HASHABLE_JUNK),
                       st.one_of(st.sampled_from(BOT_NAMES), st.integers(-1, 8), JUNK), max_size=3)


@st.composite
def configs(draw):
    """Known keys with values in and near their ranges; now and then an unknown key or a value of any kind."""
    config = {}
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=5)):
        config[key] = draw(RANGED.get(key, st.integers(-2, 11)))
    if draw(st.integers(0, 2)) == 2:
        config[draw(st.one_of(st.sampled_from(KEYS), st.text(max_size=8), HASHABLE_JUNK))] = draw(CONFIG_VALUE)
    if draw(st.booleans()):
        config["bots"] = draw(mostly(BOTS, JUNK))
    return config


@examples(120)
@given(config=configs())
def test_any_match_config_makes_a_match_or_raises_a_config_error(config):
    try:
        m = Match.from_config(config)
    except ConfigError as error:
        event(f"raised {type(error).__name__}")
        assert str(error)
        return
    event("made a match")
    with m:
        assert Match.from_config(m.config).hash() == m.hash(), "the config read back makes the same match"
        m.step(min(24, m.config.max_ticks))
        if m.config.heroes:
            finite_and_binary(m)


# ---- arena actions ---------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def arena():
    with Arena(lanes=2, self_play=True, threads=1, max_ticks=480, opponents=("base",)) as a:
        yield a


DTYPES = [np.int64, np.int8, np.uint8, np.uint64, np.int16, np.float32, np.float64, np.bool_, np.int32]


@st.composite
def action_arrays(draw, agents):
    shape = draw(mostly(st.just((agents, 5)), st.sampled_from([(agents, 4), (agents * 5,), (1, agents, 5), (0, 5),
                                                              (agents + 1, 5), (agents, 5, 1)]), odds=4))
    dtype = draw(mostly(st.just(np.int32), st.sampled_from(DTYPES), odds=2))
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        legal = st.integers(max(info.min, -2), min(info.max, 60))
        extreme = st.sampled_from([info.min, info.max])
        elements = st.one_of(legal, legal, legal, extreme)
    else:
        elements = None
    array = draw(hnp.arrays(dtype, shape, elements=elements))
    if draw(st.integers(0, 3)) < 3 and array.shape == (agents, 5) and np.issubdtype(dtype, np.integer):
        array = np.mod(array.astype(np.int64), HEAD_SIZES).astype(dtype)   # all in range: a step that runs
    return array


@examples(150)
@given(data=st.data())
def test_any_action_array_steps_the_arena_or_is_refused_before_any_lane_moves(arena, data):
    actions = data.draw(mostly(action_arrays(arena.agents), st.one_of(st.lists(st.lists(ARG, max_size=6), max_size=3),
                                                                       ARG), odds=6), label="actions")
    before = [arena.lane_hash(i) for i in range(arena.lanes)]
    try:
        out = arena.step(actions)
    except (ArgumentRangeError, ArgumentTypeError) as error:
        event(f"raised {type(error).__name__}")
        assert [arena.lane_hash(i) for i in range(arena.lanes)] == before, "a refused step moved a lane"
        return
    event("stepped")
    assert np.isfinite(out.obs).all()   # the arena writes no rewards: reward modes do, from out.signals
    assert ((out.masks == 0) | (out.masks == 1)).all()
    assert set(np.unique(out.terminals)) <= {0, 1} and set(np.unique(out.truncations)) <= {0, 1}


@examples(25)
@given(lanes=st.one_of(st.integers(-1, 3), JUNK, st.just(2**40)), action_ticks=st.one_of(st.integers(-1, 26), JUNK),
       threads=st.one_of(st.integers(-1, 3), JUNK), self_play=st.booleans(),
       opponents=st.one_of(st.lists(st.sampled_from(BOT_NAMES), max_size=3), st.sampled_from(BOT_NAMES), JUNK),
       config=st.dictionaries(st.sampled_from(KEYS[:5] + ["bot_3", "bogus"]), CONFIG_VALUE, max_size=2))
def test_any_arena_arguments_make_an_arena_or_raise_a_typed_error(lanes, action_ticks, threads, self_play,
                                                                   opponents, config):
    try:
        a = Arena(lanes=lanes, action_ticks=action_ticks, threads=threads, self_play=self_play,
                  opponents=opponents, **config)
    except (ArgumentRangeError, ArgumentTypeError, ConfigError):
        return
    with a:
        assert np.isfinite(a.obs).all() and ((a.masks == 0) | (a.masks == 1)).all()


# ---- replay bytes ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def replay_bytes():
    with RecordingMatch(seed=5, max_ticks=96, bots={"blue": "base"}, checkpoint_ticks=48) as m:
        rng = np.random.default_rng(0)
        while not m.over:
            for seat in range(5):
                m.act(seat, (rng.integers(0, 1 << 20, 5) % HEAD_SIZES).astype(np.int32))
            m.level(1, 1)
            m.step(8)
        return Blob(m.replay().to_bytes())


PREFIX = struct.Struct("<8sIIQ32s")   # magic, version, header bytes, payload bytes, SHA-256 (docs/replays.md)


def split(data: bytes):
    magic, version, header_size, payload_size, _ = PREFIX.unpack_from(data)
    body = data[PREFIX.size:]
    return magic, version, json.loads(body[:header_size]), body[header_size:]


def signed(magic: bytes, version: int, header, payload: bytes) -> bytes:
    """A well-formed file around an edited header: sizes and SHA-256 made to match."""
    text = json.dumps(header).encode()
    digest = hashlib.sha256(text + payload).digest()
    return PREFIX.pack(magic, version, len(text), len(payload), digest) + text + payload


JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=6),
                              st.sampled_from(["0x0", "0xffffffffffffffff", "0xz", "win", "draw", "base", "script"])),
                    lambda inner: st.one_of(st.lists(inner, max_size=11), st.dictionaries(st.text(max_size=6), inner,
                                                                                          max_size=3)),
                    max_leaves=12)


def read_or_refuse(data: bytes):
    try:
        r = Replay.from_bytes(data, name="fuzzed replay")
    except ReplayError as error:
        if currently_in_test_context():   # the statistics (--hypothesis-show-statistics) say why
            event("refused: " + str(error).split(": ", 1)[1].split(" (")[0].split(";")[0][:40])
        assert "fuzzed replay" in str(error)
        return None
    return r


@examples(60)
@given(data=st.one_of(st.binary(max_size=200), st.binary(min_size=60, max_size=60).map(lambda b: b"GOTAREPL" + b)))
def test_random_bytes_are_not_a_replay(data):
    assert read_or_refuse(data) is None


@examples(80)
@given(cut=st.integers(0, 10**6), flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), max_size=3),
       insert=st.binary(max_size=3))
def test_a_damaged_replay_file_is_refused(replay_bytes, cut, flips, insert):
    data = bytearray(replay_bytes)
    for at, mask in flips:
        data[at % len(data)] ^= mask
    at = cut % (len(data) + 1)
    damaged = bytes(data[:at] + insert + data[at:]) if insert else bytes(data[:at])
    assume(damaged != replay_bytes)
    assert read_or_refuse(damaged) is None, "the SHA-256 and the sizes catch any change"


NUMBER = st.one_of(st.integers(-2, 30000), st.integers(-2**70, 2**70),
                   st.sampled_from([float("inf"), float("-inf"), float("nan"), 1.5, True, None, "7"]))


def nudge(draw, value):
    """``value`` changed a little where it is a container (one element or entry), else replaced."""
    if isinstance(value, list) and value and draw(st.booleans()):
        value = list(value)
        at = draw(st.integers(0, len(value) - 1))
        how = draw(st.sampled_from(["change", "drop", "double"]))
        if how == "change":
            value[at] = nudge(draw, value[at])
        elif how == "drop":
            del value[at]
        else:
            value.insert(at, value[at])
        return value
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: nudge(draw, value[key])}
    if isinstance(value, str) and value.startswith("0x"):
        return draw(st.sampled_from(["0x0", "0x" + "f" * 17, "0xz", value[:-1], "1234"]))
    return draw(st.one_of(NUMBER, JSON)) if isinstance(value, (int, float)) else draw(JSON)


@examples(100)
@given(data=st.data(), payload_cut=mostly(st.none(), st.integers(0, 4000), odds=4))
def test_an_edited_but_resigned_replay_is_refused_or_replays(replay_bytes, data, payload_cut):
    magic, version, header, payload = split(replay_bytes)
    for _ in range(data.draw(st.integers(1, 2), label="edits")):
        key = data.draw(st.sampled_from(sorted(header) + ["bogus"]), label="key")
        if data.draw(st.integers(0, 5), label="drop") == 5:
            header.pop(key, None)
        else:
            header[key] = nudge(data.draw, header.get(key))
    if payload_cut is not None:
        payload = zlib.compress(zlib.decompress(payload)[:payload_cut])
    r = read_or_refuse(signed(magic, version, header, payload))
    if r is not None:
        try:
            verify(r)   # replays to its recorded hashes, or says why not
            event("read and verified")
        except ReplayError as error:
            event("read, refused to replay")
            assert r.name in str(error)


@pytest.mark.parametrize("key, value", [
    ("actions", float("inf")), ("action_ticks", float("inf")), ("final", {"tick": float("inf")}),
    ("contract", {"version": float("inf")}), ("final", {"tick": 10**30}), ("final", {"tick": 2**31}),
])
def test_a_replay_header_with_an_impossible_number_is_refused(replay_bytes, key, value):
    """Found by the property above: int(Infinity) raised OverflowError, and a final tick
    beyond int32 reached the C step call."""
    magic, version, header, payload = split(replay_bytes)
    header[key] = {**header[key], **value} if isinstance(value, dict) else value
    assert read_or_refuse(signed(magic, version, header, payload)) is None


# ---- policy and checkpoint bytes ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    torch = pytest.importorskip("torch")
    pytest.importorskip("safetensors")
    from gota_arena.nets import MLPPolicy
    from gota_arena.policies import save_policy
    from gota_arena.train.checkpoint import rng_state, save_checkpoint
    folder = tmp_path_factory.mktemp("saved")
    torch.manual_seed(0)
    policy = MLPPolicy(hidden=8, layers=1)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    save_policy(policy, str(folder / "policy.safetensors"), extra={"update": 3})
    save_checkpoint(folder / "last.pt", {"format": "gota-train/1", "model": policy.state_dict(),
                                         "optimizer": optimizer.state_dict(), "update": 3, "global_step": 120,
                                         "rng": rng_state(), "league": {}, "config": "{}"})
    return folder, Blob((folder / "policy.safetensors").read_bytes()), Blob((folder / "last.pt").read_bytes())


def damage(data: bytes, cut: int, flips, insert: bytes) -> bytes:
    out = bytearray(data)
    for at, mask in flips:
        out[at % len(out)] ^= mask
    at = cut % (len(out) + 1)
    return bytes(out[:at] + insert + out[at:]) if insert else bytes(out[:at]) if cut % 3 == 0 else bytes(out)


DAMAGE = dict(cut=st.integers(0, 10**6), flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)),
                                                         max_size=3), insert=st.binary(max_size=3))


@examples(50)
@given(random=st.one_of(st.none(), st.binary(max_size=300)), **DAMAGE)
def test_a_damaged_policy_file_loads_or_is_refused_naming_it(saved, random, cut, flips, insert, tmp_path_factory):
    from gota_arena.policies import load_policy
    folder, policy_bytes, _ = saved
    path = folder / "fuzzed.safetensors"
    path.write_bytes(random if random is not None else damage(policy_bytes, cut, flips, insert))
    try:
        policy = load_policy(str(path))
    except PluginError as error:
        event("refused")
        assert str(path) in str(error)
        return
    event("loaded")
    out = policy.act(np.zeros((2, OBS_SIZE), np.float32), np.ones((2, MASK_SIZE), np.uint8), deterministic=True)
    assert np.isfinite(out.value).all()


@examples(40)
@given(meta=st.dictionaries(st.sampled_from(["format", "adapter", "config", "contract_hash", "play", "update"]),
                            st.one_of(JSON.map(json.dumps), st.text(max_size=8)), min_size=1, max_size=3),
       tensors=st.one_of(st.none(), JSON))
def test_a_policy_file_with_edited_metadata_loads_or_is_refused_naming_it(saved, meta, tensors):
    """safetensors: 8 bytes of header length, a JSON header (tensor entries and
    __metadata__), the data; an edit that keeps the file well-formed."""
    from gota_arena.policies import load_policy
    folder, policy_bytes, _ = saved
    (n,) = struct.unpack_from("<Q", policy_bytes)
    header = json.loads(policy_bytes[8:8 + n])
    header["__metadata__"] = {**header["__metadata__"], **meta}
    if tensors is not None:
        header[sorted(k for k in header if k != "__metadata__")[0]] = tensors
    text = json.dumps(header).encode()
    path = folder / "edited.safetensors"
    path.write_bytes(struct.pack("<Q", len(text)) + text + policy_bytes[8 + n:])
    try:
        load_policy(str(path))
        event("loaded")
    except PluginError as error:
        event("refused")
        assert str(path) in str(error)


@examples(40)
@given(random=st.one_of(st.none(), st.binary(max_size=300)), **DAMAGE)
def test_a_damaged_training_checkpoint_loads_or_is_refused_naming_it(saved, random, cut, flips, insert):
    from gota_arena.train.checkpoint import CheckpointError, load_checkpoint
    folder, _, checkpoint_bytes = saved
    path = folder / "fuzzed.pt"
    path.write_bytes(random if random is not None else damage(checkpoint_bytes, cut, flips, insert))
    try:
        payload = load_checkpoint(path)
    except CheckpointError as error:
        event("refused")
        assert str(path) in str(error)
        return
    event("loaded")
    assert payload["format"] == "gota-train/1"


# ---- BASIC sources ---------------------------------------------------------------------------------------------
SOURCES = {p.name: p.read_text() for p in sorted(BAS.glob("*.bas"))}
TOKENS = ["if", "then", "else", "elseif", "end", "if", "for", "to", "step", "next", "do", "loop", "while", "until",
          "exit", "sub", "dim", "print", "rem", "let", "and", "or", "not", "mod", "goto", "gosub", "return", ":",
          "\n", "(", ")", ",", ";", "=", "<>", "<=", "+", "-", "*", "/", "\\", "^", "x", "y", "a(3)", "0", "1",
          "2147483647", "-2147483648", "32767.99", "1e9", "1.5", '"s"', "'", "selfTeam", "attack", "draftHero(3)",
          "walkTo", "levelAbility(1)", "useItem(9)", "buyItem(22)", "nearestEnemy", "tick", "random(0)", "$"]


@st.composite
def mutated_source(draw):
    lines = SOURCES[draw(st.sampled_from(sorted(SOURCES)))].split("\n")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "double", "swap", "token", "chars", "cut"]))
        if how == "drop":
            del lines[at]
        elif how == "double":
            lines.insert(at, lines[at])
        elif how == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif how == "token":
            words = lines[at].split(" ")
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(TOKENS))
            lines[at] = " ".join(words)
        elif how == "chars":
            col = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:col] + draw(st.text(max_size=4)) + lines[at][col:]
        else:
            lines = lines[:at]
            break
    return "\n".join(lines)


SOURCE = st.one_of(mutated_source(), mutated_source(), mutated_source(),
                   st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join), st.text(max_size=200),
                   st.binary(max_size=200))


@examples(100)
@given(source=SOURCE, play=st.booleans())
def test_any_basic_source_compiles_or_is_a_syntax_error_and_a_compiled_one_plays(source, play):
    try:
        program = basic.compile(source, name="fuzzed.bas")
    except BasicSyntaxError as error:
        event("syntax error")
        assert str(error).startswith("fuzzed.bas:") and error.lineno >= 0
        return
    event("compiled")
    if not play:
        return
    with Match(seed=2, max_ticks=240, scripts={"blue": program}, bots={"red": "base"}) as m:
        m.step(120)
        for seat in range(5, 10):   # a runtime error disables the seat's script, and says why
            status = m.script_status(seat)
            assert status.error_kind == "none" or (status.disabled and status.error_kind in basic.ERROR_KINDS.values())
            m.script_log(seat)
        finite_and_binary(m)
