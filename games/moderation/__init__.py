"""Moderation: verifying histories, fair-play flags, exclusions, the audit log, staff review."""
