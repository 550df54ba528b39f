"""The ``gin`` command (see :mod:`ginrummy.cli.main`)."""
