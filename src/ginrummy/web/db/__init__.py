"""The store (SQLAlchemy), the group commit, notifications between servers, migrations."""
