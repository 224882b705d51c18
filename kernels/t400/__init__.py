"""Tarneeb 400 kernels: the rules twin, bot bidders, full-hand rollouts, matches and the guide."""
