"""The plugins bundled with gota-arena: native bots as opponents, the reward modes
of docs/rules.md section 8, the mlp / lstm / random policy adapters. They use only the public
hooks of gota_arena/hookspecs.py, like any third-party plugin."""
