"""What every stage shares: errors and exit statuses, the settings table, bundled files, text
hygiene, and the typed answer contract."""
