"""Public adapters to other ecosystems: lm-evaluation-harness, Inspect AI, Hugging Face, reasoning-gym."""
