"""Classic and Egyptian Tarneeb kernels: the rules twin (scoring, the auction, the match end)."""
