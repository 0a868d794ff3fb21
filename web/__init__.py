"""The application and composition root: Flask app, JSON API, the `tableside` CLI, runtime."""
