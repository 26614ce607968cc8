"""Reward signals and the bundled reward modes (docs/rules.md section 8).

The signals the arena writes are checked against the simulator itself: a
``Match`` replays each arena lane (same seed, bots, actions and ticks: a lane
is byte-identical to a fresh match with its seed), and its seat stats, team
scores, towers and gods must give the same numbers. The four bundled formulas
are checked on constructed signals with hand-computed values, and the
``leaderboard`` mode (the only leaderboard reward: the arena computes none)
against the replaying matches' scores and Glory. Each counter signal
(gold earned, last hits, neutral kills, kills, deaths, assists, hero and
structure damage, healing) is checked tick by tick against the match's events
and unit table, and healing on a scripted heal.
"""
import numpy as np
import pytest

from gota_arena import EventType, Kind, Match, Team, plugins
from gota_arena.arena import SIGNAL_FIELDS, SIGNALS, Arena
from gota_arena.constants import SEATS_PER_TEAM, Signal, team_seats
from gota_arena.masking import sample_actions
from gota_arena.rewards import (ASSISTS, DEATHS, DONE, GOD_HP, GOLD_EARNED, HEALING, HERO_DAMAGE, KILLS, LAST_HITS,
                                NEUTRAL_KILLS, OUTCOME, STRUCTURE_DAMAGE, TEAM_SCORE, TEAM_XP, TOWER_HP)
from gota_arena.testing import isolated_plugins, start_signals

# the counter signals: signal -> the seat statistics it sums over a team
STAT_SIGNALS = {GOLD_EARNED: ("gold_earned",), LAST_HITS: ("last_hits",), NEUTRAL_KILLS: ("neutral_kills",),
                KILLS: ("kills",), DEATHS: ("deaths",), ASSISTS: ("assists",), HERO_DAMAGE: ("hero_damage",),
                STRUCTURE_DAMAGE: ("tower_damage", "god_damage"), HEALING: ("healing",)}

MODES = ("leaderboard", "xp", "xp_outcome", "advantage")
MAX_TICKS, ACTION_TICKS = 6500, 24
BOT = "baseline"


@pytest.fixture(autouse=True)
def hermetic():
    with isolated_plugins():
        yield


# ---------------------------------------------------------------------------
# A real trace: two self-play lanes whose other team is the baseline bot.
# Seeds 8 and 9 (reset(4) of 2 lanes): lane 0's learners act at random and
# the lane times out at 6,500 ticks; lane 1's learners stand still and the
# bots win at tick 5,872. Both lanes restart (seeds 10, 11) and play on.
# ---------------------------------------------------------------------------

def match_signals(m: Match) -> np.ndarray:
    """What the arena's signals should be for this match: [2, SIGNALS]."""
    out = np.zeros((2, SIGNALS), dtype=np.int64)
    info, units = m.info, m.units
    for team in (0, 1):
        mine = (units["team"] == team) & (units["alive"] == 1)
        out[team, TEAM_XP] = sum(m.seat_stats(seat).xp for seat in range(5 * team, 5 * team + 5))
        for signal, fields in STAT_SIGNALS.items():
            out[team, signal] = sum(getattr(m.seat_stats(seat), f) for seat in team_seats(team) for f in fields)
        out[team, TEAM_SCORE] = m.team_score(team)[0]
        out[team, TOWER_HP] = units["hp"][mine & (units["kind"] == Kind.TOWER)].sum()
        out[team, GOD_HP] = units["hp"][mine & (units["kind"] == Kind.GOD)].sum()
        if m.over:
            won = info.result == "win" and info.winner == ("red", "blue")[team]
            out[team, OUTCOME] = 1 if won else -1
            out[team, DONE] = 1
    return out


class Lane:
    """A Match replaying arena lane ``lane`` from its current start."""

    def __init__(self, arena: Arena, lane: int):
        info = arena.lane(lane)
        self.learner = info["learner_team"]
        bots = {f"bot_{k}": info["opponent"] for k in range(10) if k // 5 != self.learner}
        self.match = Match(seed=info["seed"], max_ticks=MAX_TICKS, upkeep=1, **bots)
        self.start_hash = self.match.hash()

    def step(self, rows: np.ndarray) -> None:
        """The arena's step for this lane: the learners' actions (the living
        heroes, in seat order), then ACTION_TICKS ticks."""
        for j in range(5):
            seat = self.learner * 5 + j
            if self.match.seat_stats(seat).alive:
                self.match.act(seat, rows[j].tolist())
        if not self.match.over:
            self.match.step(ACTION_TICKS)


@pytest.fixture(scope="module")
def trace():
    """Per step: the arena's signals, stats and learner teams (before
    the step), the replaying matches' signals, hashes and glory per team."""
    rng = np.random.default_rng(0)
    steps = []
    with isolated_plugins(), Arena(lanes=2, self_play=True, action_ticks=ACTION_TICKS, max_ticks=MAX_TICKS,
                                   threads=1) as arena:
        for lane in range(2):
            arena.set_opponent(lane, BOT)
        out = arena.reset(10)
        start = out.signals.copy()
        lanes = [Lane(arena, i) for i in range(2)]
        start_hashes = [(lane.start_hash, arena.lane_hash(i)) for i, lane in enumerate(lanes)]
        finished, after = np.zeros(2, dtype=int), 0
        while finished.min() == 0 or after < 6:
            actions = sample_actions(out.masks, rng)
            actions[10:] = 0                      # lane 1: the learners stand still
            learners = [lane.learner for lane in lanes]
            for i, lane in enumerate(lanes):
                lane.step(actions[i * 10:i * 10 + 5])
            out = arena.step(actions)
            record = dict(signals=out.signals.copy(), stats=out.stats.copy(),
                          learners=learners, mirror=[], hashes=[], glory=[])
            for i, lane in enumerate(lanes):
                record["mirror"].append(match_signals(lane.match))
                record["glory"].append([lane.match.team_score(t)[1] for t in (0, 1)])
                if out.stats["finished"][i]:
                    finished[i] += 1
                    lanes[i] = Lane(arena, i)
                    start_hashes.append((lanes[i].start_hash, arena.lane_hash(i)))
                    record["restart_signals"] = match_signals(lanes[i].match)
                else:
                    record["hashes"].append((lane.match.hash(), arena.lane_hash(i)))
            steps.append(record)
            after = 0 if finished.min() == 0 else after + 1
            assert len(steps) < 400, "the trace should finish both lanes within 400 steps"
    return dict(start=start, steps=steps, start_hashes=start_hashes)


def test_trace_covers_win_timeout_and_restarts(trace):
    final = [s for s in trace["steps"] if s["stats"]["finished"].any()]
    results = {int(r) for s in final for r in s["stats"]["result"][s["stats"]["finished"] == 1]}
    assert results == {1, 3}, "one lane won (result 1), one timed out (3)"
    assert len(final) == 2 and (trace["steps"][-1]["signals"][:, :, DONE] == 0).all()


def test_replaying_matches_are_the_arena_lanes(trace):
    assert all(a == b for a, b in trace["start_hashes"])
    assert all(a == b for s in trace["steps"] for a, b in s["hashes"])


def test_every_signal_matches_the_simulator(trace):
    for n, step in enumerate(trace["steps"]):
        for lane in range(2):
            assert np.array_equal(step["signals"][lane], step["mirror"][lane]), \
                f"step {n} lane {lane}: arena {step['signals'][lane].tolist()} != match {step['mirror'][lane].tolist()}"
    signals = np.stack([s["signals"] for s in trace["steps"]])
    start = trace["start"]
    assert signals[..., TEAM_XP].max() > 0 and signals[..., TEAM_SCORE].max() > 0
    assert (signals[..., TOWER_HP] < start[0, 0, TOWER_HP]).any(), "towers took damage"
    assert (signals[..., GOD_HP] == 0).any(), "a god fell"
    assert set(np.unique(signals[..., OUTCOME])) == {-1, 0, 1}


def test_fresh_matches_start_with_identical_signals(trace):
    """PotentialReward resets a finished lane to the start values seen at reset:
    every fresh match, whatever its seed, side and bots, starts the same."""
    start = trace["start"]
    assert (start == start[0, 0]).all()
    assert start[0, 0, TEAM_XP] == 0 and start[0, 0, TEAM_SCORE] == 0 and start[0, 0, GOD_HP] > 0
    for step in trace["steps"]:
        if "restart_signals" in step:
            assert np.array_equal(step["restart_signals"], start[0])
    with Arena(lanes=6, self_play=True, threads=1) as arena:
        for lane, bot in enumerate(("idle", "random", "base", "rusher", "puller")):
            arena.set_opponent(lane + 1, bot)
        for seed in (0, 7, 123):
            assert (arena.reset(seed).signals == start[0, 0]).all()
    assert np.array_equal(start_signals(3), np.broadcast_to(start[0, 0], (3, 2, SIGNALS)))


def test_leaderboard_follows_the_simulators_score(trace):
    """Per step and team: the change of (the replaying match's team score, or
    its Glory on the step the match ends) / 1000; a restarted lane starts from 0."""
    mode = plugins.reward_mode("leaderboard")
    mode.reset(trace["start"])
    last = np.zeros((2, 2))
    nonzero = 0
    for n, step in enumerate(trace["steps"]):
        got = mode.rewards(step["signals"])
        for lane in range(2):
            mirror = step["mirror"][lane]
            ended = mirror[0, DONE] == 1
            now = np.array(step["glory"][lane] if ended else mirror[:, TEAM_SCORE], dtype=np.float64)
            assert np.allclose(got[lane], (now - last[lane]) / 1000, rtol=1e-6, atol=0), f"step {n} lane {lane}"
            last[lane] = 0 if ended else now
            nonzero += int((got[lane] != 0).sum())
    assert nonzero > 0


def test_leaderboard_episode_returns_glory(trace):
    """An episode returns Glory / 1000 to the winners and 0 to everyone else."""
    mode = plugins.reward_mode("leaderboard")
    mode.reset(trace["start"])
    returns = np.zeros((2, 2))
    episodes = []
    for step in trace["steps"]:
        returns += mode.rewards(step["signals"])
        for lane in np.flatnonzero(step["signals"][:, 0, DONE]):
            episodes.append((returns[lane].copy(), step["glory"][lane], step["signals"][lane, :, OUTCOME]))
            returns[lane] = 0
    assert len(episodes) == 2
    for got, glory, outcome in episodes:
        expected = [g / 1000 if o == 1 else 0.0 for g, o in zip(glory, outcome)]
        assert np.allclose(got, expected, atol=1e-5), (got, glory, outcome)
    assert any(g[0] > 0 or g[1] > 0 for _, g, _ in episodes), "the winners had Glory"


# ---------------------------------------------------------------------------
# The four formulas on constructed signals. Five lanes; team 0 = red.
#   step 1: every lane runs on;
#   step 2: lane 0 red wins, lane 1 blue wins, lane 2 a draw (both gods fall),
#           lane 3 a timeout, lane 4 runs on;
#   step 3: lanes 0-3 are fresh matches (red has 100 XP), lane 4 runs on.
# Fields: team_xp, team_score, tower_hp, god_hp, outcome, done.
# ---------------------------------------------------------------------------

START = (0, 0, 30000, 400, 0, 0)
STEP1 = [[(500, 100, 30000, 400, 0, 0), (200, 0, 29000, 400, 0, 0)]] * 5
STEP2 = [
    [(2500, 1800, 30000, 400, 1, 1), (300, 0, 25000, 0, -1, 1)],      # red wins
    [(600, 0, 20000, 0, -1, 1), (1700, 1200, 29000, 400, 1, 1)],      # blue wins
    [(900, 300, 28000, 0, -1, 1), (900, 350, 27000, 0, -1, 1)],       # draw
    [(800, 200, 30000, 400, -1, 1), (700, 150, 29000, 400, -1, 1)],   # timeout
    [(700, 150, 30000, 400, 0, 0), (200, 0, 29000, 400, 0, 0)],       # runs on
]
STEP3 = [[(100, 0, 30000, 400, 0, 0), (0, 0, 30000, 400, 0, 0)]] * 4 + [
    [(900, 200, 30000, 400, 0, 0), (200, 0, 28000, 400, 0, 0)]]

# Hand-computed per mode: [step][lane] = (red, blue).
EXPECTED = {
    # potential = score, 0 for every team but the winner on the final step; / 1000
    "leaderboard": [
        [(0.1, 0.0)] * 5,
        [(1.7, 0.0), (-0.1, 1.2), (-0.1, 0.0), (-0.1, 0.0), (0.05, 0.0)],
        [(0.0, 0.0)] * 4 + [(0.05, 0.0)],
    ],
    # change in team XP / 100
    "xp": [
        [(5.0, 2.0)] * 5,
        [(20.0, 1.0), (1.0, 15.0), (4.0, 7.0), (3.0, 5.0), (2.0, 0.0)],
        [(1.0, 0.0)] * 4 + [(2.0, 0.0)],
    ],
    # xp + 50 x outcome on the final step
    "xp_outcome": [
        [(5.0, 2.0)] * 5,
        [(70.0, -49.0), (-49.0, 65.0), (-46.0, -43.0), (-47.0, -45.0), (2.0, 0.0)],
        [(1.0, 0.0)] * 4 + [(2.0, 0.0)],
    ],
    # own = XP + 2 x tower HP + 20 x god HP; potential = own - enemy own; / 1000, + outcome at the end
    # start: 68,000 - 68,000 = 0; step 1: 68,500 - 66,200 = 2,300
    "advantage": [
        [(2.3, -2.3)] * 5,
        [(18.9, -18.9),    # 70,500 - 50,300 = 20,200: +17.9, +1 / -17.9, -1
         (-30.4, 30.4),    # 40,600 - 67,700 = -27,100: -29.4, -1 / +29.4, +1
         (-1.3, -0.7),     # 56,900 - 54,900 = 2,000: -0.3, -1 / +0.3, -1
         (-1.2, -0.8),     # 68,800 - 66,700 = 2,100: -0.2, -1 / +0.2, -1
         (0.2, -0.2)],     # 68,700 - 66,200 = 2,500
        [(0.1, -0.1)] * 4      # fresh matches: 68,100 - 68,000 = 100
        + [(2.2, -2.2)],       # 68,900 - 64,200 = 4,700, previously 2,500
    ],
}


def constructed():
    start = np.array([[START, START]] * 5, dtype=np.int64)
    return start, [np.array(s, dtype=np.int64) for s in (STEP1, STEP2, STEP3)]


@pytest.mark.parametrize("name", MODES)
def test_bundled_formulas(name):
    start, steps = constructed()
    mode = plugins.reward_mode(name)
    mode.reset(start)
    for n, signals in enumerate(steps):
        got = mode.rewards(signals)
        assert got.dtype == np.float32 and got.shape == (5, 2)
        assert np.allclose(got, EXPECTED[name][n], atol=1e-5), f"{name} step {n + 1}: {got.tolist()}"


def test_leaderboard_returns_on_constructed_episodes():
    """Glory / 1000 for the winners, 0 for the rest (loss, draw, timeout)."""
    start, steps = constructed()
    mode = plugins.reward_mode("leaderboard")
    mode.reset(start)
    returns = mode.rewards(steps[0]) + mode.rewards(steps[1])
    assert np.allclose(returns[:4], [(1.8, 0.0), (0.0, 1.2), (0.0, 0.0), (0.0, 0.0)], atol=1e-6)


def test_advantage_is_zero_sum_while_running():
    start, steps = constructed()
    mode = plugins.reward_mode("advantage")
    mode.reset(start)
    for signals in steps:
        got = mode.rewards(signals)
        running = signals[:, 0, DONE] == 0
        assert np.allclose(got[running].sum(axis=1), 0.0, atol=1e-6)


# ---------------------------------------------------------------------------
# The counter signals, tick by tick. Seed 2 with the puller bot on both sides
# has, within 2,000 ticks, lane-creep and neutral last hits, hero kills with
# assists, structure hits and heals; every tick's change of each counter is
# checked against what happened in that tick (the event log, the unit table).
# ---------------------------------------------------------------------------
COUNTER_SEED, COUNTER_TICKS = 1, 2000
STRUCTURES = (Kind.TOWER, Kind.BARRACKS, Kind.GOD)


@pytest.fixture(scope="module")
def counter_trace():
    """Per tick: the signal change [2, SIGNALS], the tick's death events as
    (victim kind, victim team, killer's team or -1, killer is a hero), and the
    units before and after; plus the final seat stats."""
    ticks = []
    with Match(seed=COUNTER_SEED, bots={"red": "puller", "blue": "puller"}) as m:
        heroes = {int(m.units[m.hero(s).unit_index]["id"]): s for s in range(2 * SEATS_PER_TEAM)}
        team_of_id = {}
        prev, before, seq = m.signals(), m.units.copy(), 0
        assert (prev[:, list(STAT_SIGNALS)] == 0).all(), "every counter starts at 0"
        for _ in range(COUNTER_TICKS):
            m.step(1)
            now, after = m.signals(), m.units.copy()
            events, seq = m.events_array(seq)
            team_of_id.update({int(u["id"]): int(u["team"]) for u in before})
            deaths = [(int(e["kind"]), int(e["team"]), team_of_id.get(int(e["other"]), -1), int(e["other"]) in heroes)
                      for e in events if e["type"] == EventType.DEATH]
            ticks.append(dict(delta=now - prev, deaths=deaths, before=before, after=after))
            prev, before = now, after
        stats = [m.seat_stats(s) for s in range(2 * SEATS_PER_TEAM)]
        final = m.signals()
    return dict(ticks=ticks, stats=stats, final=final)


def _credited(deaths, kind, team) -> int:
    """Deaths of units of `kind` whose killing hit a hero of `team` landed."""
    return sum(1 for k, _, killer_team, by_hero in deaths if k == kind and by_hero and killer_team == team)


def test_counters_are_the_sums_of_the_seat_stats_and_never_fall(counter_trace):
    final, stats = counter_trace["final"], counter_trace["stats"]
    for team in (Team.RED, Team.BLUE):
        for signal, fields in STAT_SIGNALS.items():
            assert final[team, signal] == sum(getattr(stats[s], f) for s in team_seats(team) for f in fields), \
                SIGNAL_FIELDS[signal]
    deltas = np.stack([t["delta"] for t in counter_trace["ticks"]])
    for signal in STAT_SIGNALS:
        assert (deltas[:, :, signal] >= 0).all(), f"{SIGNAL_FIELDS[signal]} is cumulative"
        assert deltas[:, :, signal].sum() > 0, f"{SIGNAL_FIELDS[signal]} moved in the trace"


def test_last_hits_and_neutral_kills_move_on_the_ticks_a_hero_lands_the_killing_hit(counter_trace):
    seen = 0
    for tick in counter_trace["ticks"]:
        for team in (Team.RED, Team.BLUE):
            assert tick["delta"][team, LAST_HITS] == _credited(tick["deaths"], Kind.CREEP, team)
            assert tick["delta"][team, NEUTRAL_KILLS] == _credited(tick["deaths"], Kind.NEUTRAL, team)
            seen += tick["delta"][team, LAST_HITS]
    assert seen > 10


def test_gold_earned_moves_with_the_gold_of_the_rules(counter_trace):
    """15 a creep, 100 a hero, 75 a tower or barracks, 10..60 a neutral
    (its tier and leadership are not in the event log: at least 10)."""
    for tick in counter_trace["ticks"]:
        for team in (Team.RED, Team.BLUE):
            d = tick["deaths"]
            fixed = (15 * _credited(d, Kind.CREEP, team) + 100 * _credited(d, Kind.HERO, team)
                     + 75 * (_credited(d, Kind.TOWER, team) + _credited(d, Kind.BARRACKS, team)))
            neutrals = _credited(d, Kind.NEUTRAL, team)
            gold = tick["delta"][team, GOLD_EARNED]
            assert fixed + 10 * neutrals <= gold <= fixed + 60 * neutrals


def test_kills_deaths_and_assists_move_on_hero_deaths(counter_trace):
    for tick in counter_trace["ticks"]:
        hero_deaths = [(team, killer_team) for kind, team, killer_team, _ in tick["deaths"] if kind == Kind.HERO]
        for team in (Team.RED, Team.BLUE):
            d = tick["delta"][team]
            assert d[KILLS] == _credited(tick["deaths"], Kind.HERO, team)
            assert d[DEATHS] == sum(1 for victim, _ in hero_deaths if victim == team)
            # an assist needs an enemy hero's death that counts as a kill for this team
            kills_for_team = sum(1 for victim, killer in hero_deaths if victim != team and killer == team)
            assert d[ASSISTS] <= SEATS_PER_TEAM * kills_for_team


def _hp(units, kinds, team) -> dict:
    rows = units[np.isin(units["kind"], kinds) & (units["team"] == team)]
    return {int(u["id"]): int(u["hp"]) if u["alive"] else 0 for u in rows}


def test_damage_moves_only_when_enemy_heroes_or_structures_lose_hp(counter_trace):
    for tick in counter_trace["ticks"]:
        for team in (Team.RED, Team.BLUE):
            for signal, kinds in ((HERO_DAMAGE, (Kind.HERO,)), (STRUCTURE_DAMAGE, STRUCTURES)):
                if tick["delta"][team, signal]:
                    was, now = _hp(tick["before"], kinds, 1 - team), _hp(tick["after"], kinds, 1 - team)
                    lost = sum(max(0, hp - now.get(uid, 0)) for uid, hp in was.items())
                    assert lost > 0, f"{SIGNAL_FIELDS[signal]} moved with no enemy HP lost"
                    if signal == STRUCTURE_DAMAGE:   # nothing heals a structure
                        assert tick["delta"][team, signal] <= lost


def test_healing_moves_only_by_hp_the_teams_heroes_were_missing(counter_trace):
    for tick in counter_trace["ticks"]:
        for team in (Team.RED, Team.BLUE):
            healed = tick["delta"][team, HEALING]
            if healed:
                rows = tick["before"][(tick["before"]["kind"] == Kind.HERO) & (tick["before"]["team"] == team)
                                      & (tick["before"]["alive"] == 1)]
                missing = int((rows["max_hp"].astype(np.int64) - rows["hp"]).sum())
                assert 0 < healed <= missing
                was, now = _hp(tick["before"], (Kind.HERO,), team), _hp(tick["after"], (Kind.HERO,), team)
                assert was != now, "a heal changes some hero's HP"


@pytest.mark.parametrize("missing, healed", [(100, 28), (10, 10)])
def test_healing_counts_the_hp_a_scripted_heal_adds(missing, healed):
    """Vanguard Knight's Lion Guard (Q, self heal 28 at rank 1) cast at once on
    a hero `missing` HP below its maximum: the red signal and the seat's stat
    move by the HP it added (never past the maximum), nothing else moves."""
    with Match(seed=9, class_0=0) as m:
        assert m.level(0, 0).name == "OK"
        m.step(2)
        unit = m.hero(0).unit_index
        top = int(m.units[unit]["max_hp"])
        m.set_hp(unit, top - missing)
        before = m.signals()
        assert m.cast(0, 0, target=int(m.units[unit]["id"])).name == "OK"
        after = m.signals()
        assert int(m.units[unit]["hp"]) == top - missing + healed
        assert after[Team.RED, HEALING] - before[Team.RED, HEALING] == healed == m.seat_stats(0).healing
        assert np.array_equal(np.delete(after, HEALING, axis=1), np.delete(before, HEALING, axis=1))
        assert after[Team.BLUE, HEALING] == 0


def test_signal_names_come_from_c():
    assert SIGNALS == len(SIGNAL_FIELDS) == len(Signal)
    assert SIGNAL_FIELDS[GOLD_EARNED] == "gold_earned" and SIGNAL_FIELDS[HEALING] == "healing"
    assert "denies" not in SIGNAL_FIELDS   # the rules have none (docs/rules.md section 4)
