"""Statistics and summaries over simulated hands."""
