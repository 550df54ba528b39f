"""The analysis layer: computer-vs-computer play and the review of played games.

Above the players (it seats them) and below the tables (``cli``, ``web``), which call it:

- :mod:`ginrummy.analysis.simulate`: games between computer levels, their summary;
- :mod:`ginrummy.analysis.shards`: a simulation split into shards (processes or Ray);
- :mod:`ginrummy.analysis.duplicate`: duplicate deals (each seed played twice, seats swapped);
- :mod:`ginrummy.analysis.review`: the expert's review of a played record (``gin review``);
- :mod:`ginrummy.analysis.hindsight`: the all-cards-shown line the review adds per deal.

See ``docs/architecture.md`` for the layers.
"""
