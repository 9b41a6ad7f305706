"""Layers merging several inputs: ``Add``, ``Subtract``, ``Multiply``, ``Average``, ``Maximum``,
``Minimum``, ``Concatenate``, ``Dot`` and their functional forms."""
from .merge import (Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply,  # noqa: F401
                    Subtract, add, average, concatenate, dot, maximum, minimum, multiply,
                    subtract)
