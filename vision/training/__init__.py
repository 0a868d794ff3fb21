"""Training scripts for the vision package's learned models (need the ``train`` extra)."""
