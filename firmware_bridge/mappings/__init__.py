"""Built-in button mappings, one JSON file per game (see ``firmware_bridge.mapping``)."""
