"""Leaderboard evaluation: entrants (bots, plugin opponents, policy checkpoints)
play seeded games from both sides on the arena; ratings and reports follow.

    from gota_arena.evaluate import Leaderboard
    table = Leaderboard(entrants=["idle", "random", "base"], games_per_pairing=4).run("out/")
"""
from .leaderboard import Leaderboard

__all__ = ["Leaderboard"]
