"""summary.py: the JSON-lines log and TensorFlow's answers."""
import base64
import json
import os
import zlib

import numpy as np
import pytest

import tapegrad as tf


def _entries(logdir):
    with open(os.path.join(logdir, "events.out.tapegrad.jsonl")) as f:
        return [json.loads(line) for line in f]


def _answer(t):
    """What a summary call answered: TensorFlow's is a scalar bool tensor."""
    assert isinstance(t, tf.Tensor) and t.dtype == tf.bool and t.shape == ()
    return bool(t)


def test_scalars_histograms_text_go_to_the_log(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    assert _answer(tf.summary.scalar("x", 1.0, step=0)) is False          # no default writer
    with writer.as_default(step=2):
        with tf.name_scope("train"):
            assert _answer(tf.summary.scalar("loss", tf.constant(0.5))) is True
        assert _answer(tf.summary.histogram("w", [1.0, 2.0, 3.0, 4.0], buckets=2)) is True
        assert _answer(tf.summary.text("msg", "hi", step=5)) is True
        with tf.summary.record_if(False):
            assert _answer(tf.summary.scalar("skipped", 1.0)) is False
    entries = _entries(str(tmp_path))
    assert [(e["tag"], e["kind"], e["step"]) for e in entries] == [
        ("train/loss", "scalar", 2), ("w", "histogram", 2), ("msg", "text", 5)]
    assert entries[1]["buckets"] == [[1.0, 2.5, 2], [2.5, 4.0, 2]]
    assert entries[2]["value"] == "hi"


def _png_pixels(data, height, width, channels):
    """The rows of an 8-bit PNG whose rows all use filter 0 (as tapegrad's encoder writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        if data[at + 4:at + 8] == b"IDAT":
            idat += data[at + 8:at + 8 + size]
        at += 12 + size
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, -1)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, channels)


def test_images_audio_tensors_and_graphs_go_to_the_log(tmp_path):
    images = tf.reshape(tf.linspace(0.0, 1.0, 2 * 3 * 4 * 3), [2, 3, 4, 3])
    clip = tf.reshape(tf.constant([0.0, 0.5, -1.0, 2.0]), [1, 4, 1])

    @tf.function
    def f(x):
        return x * 2.0
    graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=7):
        assert _answer(tf.summary.image("pics", images, max_outputs=1)) is True
        assert _answer(tf.summary.audio("clip", clip, sample_rate=8000)) is True
        assert _answer(tf.summary.write("raw", tf.constant([[1, 2]]), step=8)) is True
        assert _answer(tf.summary.graph(graph)) is True
    png, wav, raw, nodes = _entries(str(tmp_path))
    assert len(png["png"]) == 1 and (png["height"], png["width"]) == (3, 4)
    expected = tf.image.convert_image_dtype(images[0], tf.uint8, saturate=True).numpy()
    assert _png_pixels(base64.b64decode(png["png"][0]), 3, 4, 3).tolist() == expected.tolist()
    data = base64.b64decode(wav["wav"][0])
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and wav["sample_rate"] == 8000
    assert np.frombuffer(data[44:], "<i2").tolist() == [0, 16384, -32767, 32767]  # clipped to 1
    assert (raw["step"], raw["dtype"], raw["shape"], raw["value"]) == (8, "int32", [1, 2], [[1, 2]])
    assert [n["op"] for n in nodes["graphs"][0]["node"]] == ["Placeholder", "Const", "Mul",
                                                              "Identity"]


def test_missing_step_and_closed_writer(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("x", 1.0)
    writer.close()
    with writer.as_default(step=1):
        with pytest.raises(RuntimeError, match="closed"):
            tf.summary.scalar("x", 1.0)
