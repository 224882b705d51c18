"""The games of the family, one folder each: their rules, bot bidders, advice and matches.

``t400``: Tarneeb 400 (each player bids for their own tricks; hearts trump).
"""
