"""The 400 strategy report's sections, one module each: the bidding guide, the rule variants,
the match and the method (:mod:`analyzer.reports.strategy` puts them together with the index)."""
