"""People: accounts, ratings, the computer levels' ladder, members (leaderboard, statistics)."""
