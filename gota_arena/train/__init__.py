"""Training: PPO (``ppo``) of the torch policies of ``gota_arena.nets``, the
self-play league (``league``), checkpoints, reports and the quick evaluation.
Needs the ``train`` extra (torch, hydra-core, tensorboard, matplotlib,
safetensors); the core package imports without it. docs/training.md has the whole story.

    python -m gota_arena +experiment=selfplay              # the main command
    python -m gota_arena +experiment=vs_bundled trainer.total_steps=5_000_000
"""
