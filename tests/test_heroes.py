"""Heroes through the Python face: the draft, commands and their answers, views,
scores, and the errors a user gets for calls that make no sense."""
import pytest

from gota_arena import script
from gota_arena import (
    ActionError, ArgumentRangeError, ArgumentTypeError, ConfigConflictError, Kind, Match, Verb,
    ability_name, class_name, item_name,
)

ROLE_OF_CLASS = [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]   # docs/rules.md section 3.1: frontline, carry, mage, support, fighter


def test_default_draft_gives_each_team_one_hero_per_role():
    with Match(seed=11) as m:
        classes = [m.hero(seat).hero_class for seat in range(10)]
        assert sorted(classes) == list(range(10))
        for team in (range(0, 5), range(5, 10)):
            assert sorted(ROLE_OF_CLASS[classes[s]] for s in team) == [0, 1, 2, 3, 4]
        heroes = m.units_of(kind=Kind.HERO)
        assert sorted(heroes["id"]) == list(range(100, 110))


def test_draft_is_seeded_and_config_classes_are_honoured():
    def draft(seed, **cfg):
        with Match(seed=seed, **cfg) as m:
            return [m.hero(s).hero_class for s in range(10)]

    assert draft(5) == draft(5)
    assert len({tuple(draft(seed)) for seed in range(8)}) > 1
    chosen = draft(5, class_0=9, class_7=0)
    assert chosen[0] == 9 and chosen[7] == 0 and sorted(chosen) == list(range(10))


def test_a_class_on_two_seats_is_refused_with_a_clear_message():
    with pytest.raises(ConfigConflictError, match="different class"):
        Match(class_0=3, class_6=3)


def test_fresh_hero_numbers():
    with Match(seed=2, class_0=0) as m:        # seat 0: Vanguard Knight
        h = m.hero(0)
        unit = m.units[h.unit_index]
        assert (unit["hp"], unit["max_hp"], unit["damage"], unit["range"]) == (330, 330, 25, 70000)
        assert (h.level, h.gold, h.points, h.mana, h.max_mana) == (1, 150, 1, 110, 110)
        assert h.rank == (0, 0, 0, 0) and h.move_speed == 5800 and h.attack_period == 24


def test_commands_answer_with_action_errors():
    with Match(seed=3, class_0=1) as m:        # seat 0: Ranger
        assert m.cast(0, slot=1, point=(0, 0)) == ActionError.NOT_LEARNED
        assert m.level(0, slot=3) == ActionError.LEVEL_TOO_LOW     # R needs level 6
        assert m.level(0, slot=1) == ActionError.OK
        assert m.hero(0).rank[1] == 1 and m.hero(0).charges[1] == 3
        assert m.level(0, slot=0) == ActionError.NO_POINTS
        assert m.command(0, 99) == ActionError.BAD_VERB
        assert m.buy(0, item=99) == ActionError.BAD_ITEM
        assert m.buy(0, item=1) == ActionError.OK                  # a Health Potion in the spawn room
        assert m.hero(0).gold == 120
        assert m.buy(0, item=16) == ActionError.NO_GOLD            # Knight Armor costs 160
        assert m.use_item(0, slot=0) == ActionError.FULL           # full HP
        assert m.buyback(0) == ActionError.ALIVE
        assert m.walk(0, 10**9, 0) == ActionError.BAD_POINT
        assert m.attack(0, 123456) == ActionError.BAD_TARGET
        stats = m.seat_stats(0)
        assert stats.commands == 12 and stats.invalid_actions == 10


def test_walking_out_of_the_keep_closes_the_shop():
    with Match(seed=4) as m:
        assert m.walk(0, 0, 0) == ActionError.OK                   # toward the map centre
        m.step(24 * 25)
        assert m.buy(0, item=1) == ActionError.NOT_IN_SHOP


def test_bad_calls_raise():
    with Match(seed=1) as m:
        with pytest.raises(ArgumentRangeError, match="seats are 0..4"):
            m.hero(10)
        with pytest.raises(ArgumentRangeError, match="unknown verb"):
            m.command(0, "dance")
        with pytest.raises(ArgumentTypeError, match="exactly one"):
            m.cast(0, slot=0)
        with pytest.raises(ArgumentTypeError):
            m.walk(0, "far", 0)
    with Match(heroes=0) as m:
        with pytest.raises(ArgumentRangeError, match="no heroes"):
            m.seat_stats(0)
        assert m.command(0, Verb.STOP) == ActionError.NO_HERO


def test_names_come_from_the_content_tables():
    assert class_name(0) == "Vanguard Knight" and class_name(9) == "Berserker"
    assert item_name(21) == "Portal Scroll"
    assert ability_name(3, 3) == "Golem Seed"
    with pytest.raises(ArgumentRangeError):
        class_name(10)


def test_scores_follow_decision_4():
    with Match(seed=6, max_ticks=600) as m:
        m.run()
        assert m.info.result == "timeout"
        for team in ("red", "blue"):
            score, glory = m.team_score(team)
            assert score == 0 and glory == 0          # no XP yet: max(0, XP - 200/min) = 0


def test_a_match_with_heroes_is_deterministic():
    def play():
        with Match(seed=8, max_ticks=2400) as m:
            for seat in range(10):
                m.level(seat, slot=1)
                m.attack_move(seat, 0, 0)
            m.run()
            return m.hash(), [m.seat_stats(s) for s in range(10)]

    assert play() == play()


def test_glory_of_a_finished_match_follows_decision_4():
    with Match(seed=1) as m:
        script.run(m)
        info = m.info
        assert info.result == "win"
        for team, seats in (("red", range(0, 5)), ("blue", range(5, 10))):
            xp = [m.seat_stats(s).xp for s in seats]
            per_hero = [max(0, x * 1440 - 200 * info.tick) // 1440 for x in xp]
            assert [m.seat_stats(s).score for s in seats] == per_hero
            score, glory = m.team_score(team)
            assert score == sum(per_hero) // 5
            assert glory == (score if team == info.winner else 0)
            outcome = 1 if team == info.winner else -1
            assert all(m.seat_stats(s).outcome == outcome for s in seats)
        winners = range(0, 5) if info.winner == "red" else range(5, 10)
        assert all(m.seat_stats(s).xp >= 1000 for s in winners)   # the god's 1,000 XP
