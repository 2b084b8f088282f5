"""Playing a game: creating it, moves, undo, hints, resigning; its history and snapshot."""
