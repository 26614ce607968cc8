"""The bundled bots (docs/bots.md) through Python: the clearest pairings on a few
seeds, every bot through a full match, no stalls, bots mixed with external seats,
determinism, and the ``bots=`` helper's errors. The full ladder is
benchmarks/bot_ladder.py."""
import time

import pytest

import gota_arena
from gota_arena import MAX_BATTLE_TICKS, ConfigError, Match, bot_config, bot_names

BOTS = ("idle", "random", "base", "rusher", "baseline", "puller")


def play(seed, red, blue, **config):
    with Match(seed=seed, bots={"red": red, "blue": blue}, **config) as m:
        m.run()
        return m.info, m.hash(), [m.seat_stats(s) for s in range(10)]


def winner_bot(info, red, blue):
    return {"red": red, "blue": blue}.get(info.winner)


def test_names_and_config():
    assert bot_names() == ("external",) + BOTS
    assert gota_arena.bot_name(6) == "puller"
    assert bot_config({"red": "base", 7: "Puller"}) == {
        **{f"bot_{s}": 3 for s in range(5)}, "bot_7": 6}
    # a seat key wins over its team key
    assert bot_config({"blue": "idle", 5: "random"})["bot_5"] == 2
    m = Match(seed=1, bots={"blue": "rusher"})
    assert [getattr(m.config, f"bot_{s}") for s in range(10)] == [0] * 5 + [4] * 5
    m.close()
    assert Match(seed=1, bot_4=6).config.bot_4 == 6


@pytest.mark.parametrize("bad", [{"red": "nobody"}, {"green": "base"}, {11: "base"}, {"red": 9}, {"red": 1.5}])
def test_unknown_bots_say_what_exists(bad):
    with pytest.raises(ConfigError) as err:
        Match(seed=1, bots=bad)
    text = str(err.value)
    assert "puller" in text or "red" in text


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("weak", ["idle", "random"])
def test_base_beats_idle_and_random(seed, weak):
    red, blue = ("base", weak) if seed % 2 else (weak, "base")
    info, _, _ = play(seed, red, blue)
    assert info.result == "win" and winner_bot(info, red, blue) == "base", info


@pytest.mark.parametrize("bot", BOTS)
def test_every_bot_plays_a_full_match(bot):
    start = time.perf_counter()
    info, _, stats = play(3, bot, "base")
    seconds = time.perf_counter() - start
    assert info.result != "running"
    assert info.tick == MAX_BATTLE_TICKS or info.result in ("win", "draw")
    assert seconds < 60, f"{bot}: a full match took {seconds:.1f} s"  # never stalls
    for s in range(10):
        assert 0 <= stats[s].invalid_actions <= stats[s].commands
    if bot == "idle":
        assert all(stats[s].commands == 0 for s in range(5))
    else:
        assert all(stats[s].commands > 0 for s in range(5))


def test_bots_mixed_with_external_seats():
    with Match(seed=4, bots={0: "puller", 2: "base", "blue": "baseline", 8: "external"}) as m:
        sent = 0
        while not m.over and m.tick < 6000:
            for seat in (1, 3, 4, 8):
                m.attack_move(seat, 0, 0)
            sent += 1
            m.step(48)
        for seat in (1, 3, 4, 8):
            assert m.seat_stats(seat).commands == sent
        for seat in (0, 2, 5, 6, 7, 9):
            assert m.seat_stats(seat).commands > 0


def test_bot_commands_are_deterministic():
    def run():
        with Match(seed=9, max_ticks=4000, bots={"red": "puller", "blue": "random"}) as m:
            m.run()
            return m.hash(), [m.seat_stats(s).commands for s in range(10)]

    a, b = run(), run()
    assert a == b
    with Match(seed=10, max_ticks=4000, bots={"red": "puller", "blue": "random"}) as m:
        m.run()
        assert m.hash() != a[0]


def test_an_unknown_bot_lists_the_bots_not_external():
    from gota_arena import Match
    from gota_arena.errors import ConfigRangeError
    with pytest.raises(ConfigRangeError, match=r"the bots are idle, random, base, rusher, baseline, puller \("):
        Match(seed=1, bots={"blue": "nobody"})
