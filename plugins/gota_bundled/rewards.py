"""The bundled reward modes (docs/rules.md section 8)."""
import numpy as np

from gota_arena import hookimpl
from gota_arena.plugins import summary
from gota_arena.rewards import DONE, GOD_HP, OUTCOME, TEAM_SCORE, TEAM_XP, TOWER_HP, PotentialReward


class Leaderboard(PotentialReward):
    """potential = team score; on the finishing step it becomes the Glory (the
    score if the team won, else 0): an episode returns Glory / 1000."""

    name = "leaderboard"
    scale = 1.0 / 1000.0

    def potential(self, signals):
        score = signals[:, :, TEAM_SCORE].astype(np.float64)
        lost = (signals[:, :, DONE] != 0) & (signals[:, :, OUTCOME] != 1)
        return np.where(lost, 0.0, score)


class Xp(PotentialReward):
    """Change in the team's total XP / 100."""

    name = "xp"
    scale = 1.0 / 100.0

    def potential(self, signals):
        return signals[:, :, TEAM_XP].astype(np.float64)


class XpOutcome(Xp):
    """``xp`` plus 50 x outcome on the final step."""

    name = "xp_outcome"

    def final(self, signals):
        return 50.0 * signals[:, :, OUTCOME]


class Advantage(PotentialReward):
    """Change in (own XP - enemy XP + 2 x tower-HP lead + 20 x god-HP lead) / 1000,
    plus the outcome on the final step; zero-sum while running."""

    name = "advantage"
    scale = 1.0 / 1000.0

    def potential(self, signals):
        s = signals.astype(np.float64)
        own = s[:, :, TEAM_XP] + 2.0 * s[:, :, TOWER_HP] + 20.0 * s[:, :, GOD_HP]
        return own - own[:, ::-1]

    def final(self, signals):
        return signals[:, :, OUTCOME].astype(np.float64)


@hookimpl
def gota_register_reward_modes(register):
    for mode in (Leaderboard, Xp, XpOutcome, Advantage):
        register(mode.name, mode, summary(mode.__doc__))
