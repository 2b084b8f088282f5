"""Admin registrations for games (none yet)."""
