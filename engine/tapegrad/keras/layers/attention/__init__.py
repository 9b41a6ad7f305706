"""Attention layers: ``Attention`` and ``MultiHeadAttention``."""
from .attention import Attention, MultiHeadAttention  # noqa: F401
