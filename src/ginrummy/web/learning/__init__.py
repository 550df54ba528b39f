"""Learning from every game at the web table (issue 32): the players' scores after each deal and
match (:mod:`.table_scores`, over :mod:`ginrummy.analysis.performance` and the review worker),
above the community whose accounts keep them."""
