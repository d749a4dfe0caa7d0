"""agents: everything that decides — the Agent interface and every playing agent."""
