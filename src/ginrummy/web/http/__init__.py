"""HTTP routes by area (accounts and player pages, the review of replays)."""
