"""Ops: primitives of the table (with their rules) and the public functions composed from them."""
