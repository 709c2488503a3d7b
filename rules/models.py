"""Models of the rules app."""
