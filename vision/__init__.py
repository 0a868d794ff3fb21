"""Frames in, dice faces out: camera sources, settle detection, detection, classification.

Knows nothing of the companion, firmware_bridge or web packages.
"""
