"""The chat: a session that answers lines and keeps turns (no terminal I/O), its slash commands,
offline follow-up resolution, the turn log and transcripts."""
