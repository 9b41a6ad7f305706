"""``tf.keras.callbacks``: hooks called by ``fit``, ``evaluate`` and ``predict``."""
from .backup_and_restore import BackupAndRestore  # noqa: F401
from .callback import Callback  # noqa: F401
from .callback_list import CallbackList  # noqa: F401
from .early_stopping import EarlyStopping  # noqa: F401
from .history import History  # noqa: F401
from .lambda_callback import LambdaCallback  # noqa: F401
from .learning_rate import LearningRateScheduler, ReduceLROnPlateau  # noqa: F401
from .model_checkpoint import ModelCheckpoint, TerminateOnNaN  # noqa: F401
from .progbar_logger import ProgbarLogger  # noqa: F401
