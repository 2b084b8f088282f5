"""Game models (none yet); the rules themselves live in games.rules, free of Django."""
