"""Classic Tarneeb and Egyptian Tarneeb (seeds 003 and 004): the partnership auction games 400
comes from. ``rules``: the variants, the auction, scoring and the match end."""
