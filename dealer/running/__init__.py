"""Running matches: duplicate matches, their folders and summaries, tournaments."""
