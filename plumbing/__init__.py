"""The house's plumbing, apart from any game: the error type for bad input, storage on disk, worker processes.

Nothing game-specific lives here, and importing it changes nothing outside Python's own module table.
"""
