"""Account models (none yet)."""
