"""Test helpers shared by the suites: the tally test game and the durability harness."""
