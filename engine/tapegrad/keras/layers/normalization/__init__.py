"""Normalization layers: ``BatchNormalization``, ``LayerNormalization``, ``GroupNormalization``,
``RMSNormalization``, ``UnitNormalization``."""
from .batch_and_layer import BatchNormalization, LayerNormalization  # noqa: F401
from .group_rms_unit import GroupNormalization, RMSNormalization, UnitNormalization  # noqa: F401
