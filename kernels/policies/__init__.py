"""Card-play policies and the trick loop that asks them for cards."""
