"""The table domain: tables and their manager, seats, the lobby, autoplay, the clock, the thinking pool, the review at the table."""
