"""The rules: dice and exact odds, the table session, the event store, one package per game.

Pure and deterministic: nothing here reads a clock, a camera or a random generator,
except the event store, which stamps the wall-clock time it is given by its caller.
"""
