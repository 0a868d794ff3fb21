"""Buttons and lights: the serial button box, the Pi's GPIO, the software button box.

Knows nothing of the companion, vision or web packages.
"""
