"""The revisions, oldest first (Alembic finds them by their ``revision`` names)."""
