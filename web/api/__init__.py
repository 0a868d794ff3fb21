"""The JSON API under ``/api/``: one blueprint per feature (docs/api.md)."""
