"""The revisions of the store's schema, oldest first (see :mod:`ginrummy.web.db.migrations`)."""
