"""Admin registrations for accounts (none yet)."""
