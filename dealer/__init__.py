"""dealer: everything that referees — dealing, rules enforcement, the TCP server, logs,
duplicate matches and their statistics."""
