"""Whether tapegrad's C/WASM kernels (issue 7) are in use in this process, as the engine reports it
(``tapegrad.kernels.status()``); an engine without that module has no kernels."""
from __future__ import annotations

import os


def describe() -> dict:
    env = os.environ.get("TAPEGRAD_KERNELS")
    try:
        from tapegrad import kernels
    except ImportError:
        return {"kernels_env": env, "kernels_loaded": False,
                "kernels": "unavailable (this tapegrad has no kernels module)"}
    status = kernels.status()
    if status["enabled"]:
        state = f"on ({status['variant']})"
    else:
        state = f"off: {status['reason']}" if env == "0" else f"unavailable: {status['reason']}"
    return {"kernels_env": env, "kernels_loaded": bool(status["enabled"]), "kernels": state,
            "kernels_variant": status["variant"]}
