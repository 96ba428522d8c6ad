"""Storage: the database schema, migrations, the hot statements, the writer threads, JSON and memory."""
