"""The commands of a host who runs the card room: ``gin serve`` (:mod:`.serve`), ``gin db``
(:mod:`.db`), ``gin admin`` (:mod:`.admin`), and the server's JSON log lines (:mod:`.logs`)."""
