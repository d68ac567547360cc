"""Pure rules of the tables app: the game catalogue, Rules Submission options, deck
procedures and signage. No Django imports (DESIGN §2)."""
