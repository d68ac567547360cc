"""Services of the tables app: the only writers of its events. One function per command,
keyword-only arguments, each taking the :class:`casino.actors.Actor` who gives it."""
