"""The plugins bundled with gota-arena: native bots and BASIC scripts as opponents,
the reward modes of docs/rules.md section 8, the random / mlp / lstm / entity policy
adapters and the trained policy ppo. They use only the public hooks of gota_arena/hookspecs.py
and load like any third-party plugin: through the ``gota_arena`` entry-point group
(gota-arena's pyproject.toml), so ``GOTA_LOAD_PLUGINS=-gota_bundled.ppo`` leaves
one out. The core package (gota_arena/) never imports them."""
