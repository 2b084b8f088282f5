"""Public player profiles."""
