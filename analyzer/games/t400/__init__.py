"""Tarneeb 400: rules (:mod:`.rules`), the bot bidders' model (:mod:`.bidder`), simulation entry
points (:mod:`.simulate`), bid advice (:mod:`.advice`), matches (:mod:`.matches`) and the
bidding guide (:mod:`.guide`)."""
