"""Every entry point refuses bad input with a clear exception, and the C API answers
bad pointers and short buffers with codes instead of crashing."""
import pytest

from gota_arena import (
    ArgumentRangeError,
    ArgumentTypeError,
    ClosedMatchError,
    ConfigError,
    ConfigRangeError,
    ConfigTypeError,
    GotaBufferError,
    GotaError,
    GotaIndexError,
    Match,
    MatchConfig,
    MatchOverError,
    NullPointerError,
    UnknownConfigKeyError,
)
from gota_arena import map as gmap
from gota_arena._native import ffi, lib
from gota_arena.errors import check, config_keys


def raises(cls, *words):
    """pytest.raises that also wants every word in the message."""

    class _Check:
        def __enter__(self):
            self.ctx = pytest.raises(cls)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            swallowed = self.ctx.__exit__(*exc)
            message = str(self.info.value)
            for word in words:
                assert word in message, f"{word!r} not in {message!r}"
            return swallowed

    return _Check()


# ---- configuration ---------------------------------------------------------------
def test_unknown_config_key_lists_known_keys():
    with raises(UnknownConfigKeyError, "'sed'", "known keys", "seed", "max_ticks", "wave_interval", "did you mean 'seed'"):
        Match(sed=1)
    with raises(UnknownConfigKeyError, "'bogus'"):
        Match.from_config({"bogus": 3})
    assert issubclass(UnknownConfigKeyError, ConfigError) and issubclass(ConfigError, GotaError)


def test_config_keys_come_from_c():
    keys = (["seed", "max_ticks", "wave_interval", "heroes", "upkeep"] + [f"class_{s}" for s in range(10)]
            + [f"bot_{s}" for s in range(10)])
    assert config_keys() == keys
    assert list(MatchConfig.__dataclass_fields__) == keys
    assert MatchConfig().class_3 == -1 and MatchConfig().heroes == 1 and MatchConfig().bot_9 == 0


@pytest.mark.parametrize("value", ["100", 100.0, None, True])
def test_config_value_of_wrong_type(value):
    with raises(ConfigTypeError, "max_ticks", "integer", type(value).__name__):
        Match(max_ticks=value)
    with raises(ConfigTypeError, "max_ticks"):
        MatchConfig(max_ticks=value)
    assert issubclass(ConfigTypeError, TypeError)


def test_config_key_of_wrong_type():
    with raises(ConfigTypeError, "keys must be strings", "7"):
        Match.from_config({7: 1})


@pytest.mark.parametrize("key, value, bounds", [
    ("seed", 2**31, "-2147483648..2147483647"),
    ("seed", -(2**31) - 1, "-2147483648..2147483647"),
    ("seed", 2**70, "-2147483648..2147483647"),
    ("max_ticks", 0, "1..28800"),
    ("max_ticks", 28801, "1..28800"),
    ("wave_interval", 0, "24..28800"),
    ("wave_interval", 23, "24..28800"),
    ("wave_interval", 28801, "24..28800"),
])
def test_config_value_out_of_range(key, value, bounds):
    with raises(ConfigRangeError, f"{key}={value} is out of range {bounds}"):
        Match(**{key: value})
    with raises(ConfigRangeError, f"{key}={value}"):
        MatchConfig(**{key: value})


def test_config_edges_are_accepted():
    with Match(seed=-(2**31), max_ticks=1, wave_interval=24) as m:
        assert m.config == MatchConfig(seed=-(2**31), max_ticks=1, wave_interval=24)
    with Match.from_config(MatchConfig(seed=2**31 - 1, max_ticks=28800, wave_interval=28800)) as m:
        assert m.info.seed == 2**31 - 1


# ---- stepping ------------------------------------------------------------------
@pytest.mark.parametrize("ticks", [0, -1, -(2**31)])
def test_step_needs_a_positive_count(match, ticks):
    with raises(ArgumentRangeError, f"step(ticks={ticks})", "ticks must be >= 1"):
        match.step(ticks)
    assert match.tick == 0


def test_step_count_must_be_an_int32(match):
    with raises(ArgumentRangeError, "ticks=2147483648", "32-bit"):
        match.step(2**31)
    with raises(ArgumentTypeError, "ticks", "integer", "float"):
        match.step(1.5)


def test_stepping_a_finished_match_says_reset():
    with Match(seed=3, max_ticks=5) as m:
        assert m.run() == 5 and m.over and m.info.result == "timeout"
        with raises(MatchOverError, "step(ticks=1)", "tick 5", "timeout", "reset(seed)"):
            m.step()
        with raises(MatchOverError, "reset"):
            m.run()
        m.reset(4)
        assert m.step(2) == 2 and not m.over


@pytest.mark.parametrize("seed", [2**31, -(2**31) - 1, 2**64])
def test_reset_seed_out_of_range(match, seed):
    with raises(ArgumentRangeError, f"reset(seed={seed})", "-2147483648..2147483647"):
        match.reset(seed)


def test_reset_seed_of_wrong_type(match):
    with raises(ArgumentTypeError, "seed", "str"):
        match.reset("7")


def test_run_budget_must_be_positive(match):
    with raises(ArgumentRangeError, "max_ticks must be >= 1"):
        match.run(0)


# ---- closed matches -------------------------------------------------------------
CALLS = {
    "reset": lambda m: m.reset(1),
    "step": lambda m: m.step(),
    "run": lambda m: m.run(5),
    "tick": lambda m: m.tick,
    "info": lambda m: m.info,
    "over": lambda m: m.over,
    "hash": lambda m: m.hash(),
    "units": lambda m: m.units,
    "units_of": lambda m: m.units_of(kind="tower"),
    "structures": lambda m: m.structures(),
    "events": lambda m: m.events(),
    "new_events": lambda m: m.new_events(),
    "vision": lambda m: m.vision(0),
    "visible": lambda m: m.visible(0, 0),
    "walkable": lambda m: m.walkable(),
    "find_path": lambda m: m.find_path((0, 0), (60000, 0)),
    "set_hp": lambda m: m.set_hp(0, 1),
    "with": lambda m: m.__enter__(),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_call_on_a_closed_match_raises(name):
    m = Match(seed=1)
    CALLS[name](m)  # works while open (run and step on a fresh match)
    m.close()
    m.close()  # idempotent
    with raises(ClosedMatchError, "this Match was closed; create a new Match"):
        CALLS[name](m)
    assert m.closed and repr(m) == "<Match closed>"


def test_context_manager_closes():
    with Match(seed=2) as m:
        m.step(3)
    assert m.closed


# ---- arguments of the inspection calls -------------------------------------------
@pytest.mark.parametrize("team", [5, -1, 2])
def test_vision_of_a_bad_team(match, team):
    with raises(GotaError, f"vision(team={team})", "red=0", "blue=1"):
        match.vision(team=team)


def test_vision_of_an_unknown_team_name(match):
    with raises(ArgumentRangeError, "team='green'", "red", "blue"):
        match.vision("green")
    assert match.vision("red").shape == (116, 116)


@pytest.mark.parametrize("index", [-1, 10**6])
def test_set_hp_of_a_bad_index(match, index):
    with raises(GotaIndexError, f"set_hp(index={index}", "not a live unit", "slots are in use"):
        match.set_hp(index=index, hp=10)
    assert issubclass(GotaIndexError, IndexError)


def test_set_hp_index_beyond_int32(match):
    with raises(ArgumentRangeError, "index=1000000000000", "32-bit"):
        match.set_hp(10**12, 1)


def test_set_hp_of_a_bad_value(match):
    with raises(ArgumentRangeError, "set_hp(index=0, hp=0)", "hp must be >= 1"):
        match.set_hp(0, 0)


def test_visible_of_a_bad_index(match):
    with raises(GotaIndexError, "visible(team=0, index=9999)", "not a live unit"):
        match.visible(0, 9999)


def test_events_since_negative(match):
    with raises(ArgumentRangeError, "events(since=-1)", "since must be"):
        match.events(since=-1)


def test_find_path_off_the_map(match):
    with raises(ArgumentRangeError, "find_path", "inside the map"):
        match.find_path((10**9, 0), (0, 0))
    with raises(ArgumentTypeError, "(x, z) pairs"):
        match.find_path(5, (0, 0))


def test_lane_out_of_range():
    for lane in (3, 7, -1):
        with raises(GotaError, f"lane_route(lane={lane})", "lanes are 0, 1 and 2"):
            gmap.lane_route(lane)
    out = ffi.new("int32_t[]", 256)
    count = ffi.new("int32_t *")
    assert lib.gota_map_lane(7, out, 256, count) in (lib.GOTA_ERR_RANGE, lib.GOTA_ERR_INDEX)


# ---- the C API directly: short buffers and NULL handles ----------------------------
def test_short_buffers_give_buffer_errors(match):
    ptr = match._ptr
    small = ffi.new("uint8_t[]", 100)
    assert lib.gota_match_vision(ptr, 0, small, 100) == lib.GOTA_ERR_BUFFER
    assert lib.gota_match_walkable(ptr, small, 100) == lib.GOTA_ERR_BUFFER
    tiles = ffi.new("GotaTile[]", 10)
    assert lib.gota_map_tiles(tiles, 10) == lib.GOTA_ERR_BUFFER
    ints = ffi.new("int32_t[]", 2)
    count = ffi.new("int32_t *")
    assert lib.gota_map_lane(0, ints, 2, count) == lib.GOTA_ERR_BUFFER
    assert lib.gota_map_camps(ints, 2, count) == lib.GOTA_ERR_BUFFER
    lane = gmap.lane_route(0)
    start, goal = lane[0], lane[-1]
    assert lib.gota_match_find_path(ptr, *start, *goal, ints, 2, count) == lib.GOTA_ERR_BUFFER
    with raises(GotaBufferError, "gota_match_vision(cap=100)", "buffer too small", "larger buffer"):
        check(lib.gota_match_vision(ptr, 0, small, 100), "gota_match_vision(cap=100)")


def test_null_handles_give_null_errors():
    NULL = ffi.NULL
    i32, i64, u64 = ffi.new("int32_t *"), ffi.new("int64_t *"), ffi.new("uint64_t *")
    info = ffi.new("GotaMatchInfo *")
    units = ffi.new("const GotaUnit **")
    events = ffi.new("GotaEvent[]", 4)
    buf = ffi.new("uint8_t[]", 116 * 116)
    ints = ffi.new("int32_t[]", 1024)
    cfg = ffi.new("GotaConfig *")
    err = ffi.new("int *")
    calls = {
        "gota_config_default": lambda: lib.gota_config_default(NULL),
        "gota_config_set(cfg)": lambda: lib.gota_config_set(NULL, b"seed", 1),
        "gota_config_set(key)": lambda: lib.gota_config_set(cfg, NULL, 1),
        "gota_config_range": lambda: lib.gota_config_range(NULL, i64, i64),
        "gota_match_reset": lambda: lib.gota_match_reset(NULL, 1),
        "gota_match_step": lambda: lib.gota_match_step(NULL, 1, i32),
        "gota_match_info": lambda: lib.gota_match_info(NULL, info),
        "gota_match_hash": lambda: lib.gota_match_hash(NULL, u64),
        "gota_match_units": lambda: lib.gota_match_units(NULL, units, i32),
        "gota_match_events": lambda: lib.gota_match_events(NULL, 0, events, 4, i32, i64),
        "gota_match_vision": lambda: lib.gota_match_vision(NULL, 0, buf, len(buf)),
        "gota_match_unit_visible": lambda: lib.gota_match_unit_visible(NULL, 0, 0, i32),
        "gota_match_walkable": lambda: lib.gota_match_walkable(NULL, buf, len(buf)),
        "gota_match_debug_set_hp": lambda: lib.gota_match_debug_set_hp(NULL, 0, 1),
        "gota_match_find_path": lambda: lib.gota_match_find_path(NULL, 0, 0, 1, 1, ints, 1024, i32),
        "gota_map_tiles": lambda: lib.gota_map_tiles(NULL, 116 * 116),
        "gota_map_lane": lambda: lib.gota_map_lane(0, NULL, 1024, i32),
        "gota_map_camps": lambda: lib.gota_map_camps(NULL, 1024, i32),
    }
    for name, call in calls.items():
        code = call()
        assert code == lib.GOTA_ERR_NULL, f"{name} returned {code}"
        with raises(NullPointerError, name, "NULL"):
            check(code, name)
    assert lib.gota_match_new(NULL, err) == NULL and err[0] == lib.GOTA_ERR_NULL
    lib.gota_match_free(NULL)  # accepted and ignored


def test_null_out_pointers_on_a_live_match(match):
    ptr, NULL = match._ptr, ffi.NULL
    assert lib.gota_match_info(ptr, NULL) == lib.GOTA_ERR_NULL
    assert lib.gota_match_hash(ptr, NULL) == lib.GOTA_ERR_NULL
    assert lib.gota_match_vision(ptr, 0, NULL, 116 * 116) == lib.GOTA_ERR_NULL
    assert lib.gota_match_step(ptr, 1, NULL) == lib.GOTA_OK  # ran may be NULL
    assert match.tick == 1


def test_error_text_names_every_code():
    for code in range(-8, 0):
        assert ffi.string(lib.gota_error_text(code)) not in (b"", b"unknown error code")
