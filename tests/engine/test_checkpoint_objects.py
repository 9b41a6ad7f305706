"""tf.train.Checkpoint of a tf.random.Generator and of tf.data iterators."""
import json
import os

import pytest

import tapegrad as tf


def test_generator_state_is_saved_and_restored(tmp_path):
    g = tf.random.Generator.from_seed(3)
    ckpt = tf.train.Checkpoint(g=g)
    path = ckpt.save(str(tmp_path / "c"))
    after = g.uniform([4]).numpy()
    ckpt.restore(path).assert_consumed()
    assert (g.uniform([4]).numpy() == after).all()
    assert sorted(tf.train.load_checkpoint(path).get_variable_to_shape_map()) == [
        "g/_state_var", "save_counter"]


def test_iterator_position_replays_the_pipeline(tmp_path):
    ds = tf.data.Dataset.range(8).shuffle(8, seed=1).map(lambda x: x * 10).batch(3)
    it = iter(ds)
    ckpt = tf.train.Checkpoint(it=it)
    first = next(it).numpy().tolist()
    path = ckpt.save(str(tmp_path / "i"))
    rest = [b.numpy().tolist() for b in it]
    ckpt.restore(path)
    assert [b.numpy().tolist() for b in it] == rest
    assert sorted(sum([first] + rest, [])) == list(range(0, 80, 10))
    # a fresh iterator over the same dataset object: the shuffle's epoch is restored too
    again = iter(ds)
    tf.train.Checkpoint(it=again).restore(path)
    assert [b.numpy().tolist() for b in again] == rest


def test_numpy_iterator_and_nested_inputs(tmp_path):
    a = tf.data.Dataset.range(5)
    b = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0, 4.0, 5.0])
    it = tf.data.Dataset.zip(a, b).concatenate(tf.data.Dataset.zip(a, b)).as_numpy_iterator()
    ckpt = tf.train.Checkpoint(it=it)
    for _ in range(6):
        next(it)
    path = ckpt.write(str(tmp_path / "n"))
    expected = next(it)
    ckpt.read(path)
    assert next(it) == expected


def test_generator_anywhere_in_the_pipeline_cannot_be_saved(tmp_path):
    gen = tf.data.Dataset.from_generator(lambda: iter([1, 2]),
                                         output_signature=tf.TensorSpec((), tf.int32))
    it = iter(tf.data.Dataset.range(3).concatenate(gen.map(lambda x: tf.cast(x, tf.int64))))
    with pytest.raises(tf.errors.FailedPreconditionError, match="PyFunc is stateful"):
        tf.train.Checkpoint(it=it).save(str(tmp_path / "g"))


def test_earlier_checkpoints_still_load(tmp_path):
    """A checkpoint written before iterators and generators were saved (variables only)."""
    v = tf.Variable([1.0, 2.0])
    path = tf.train.Checkpoint(v=v).write(str(tmp_path / "old"))
    with open(path + ".index") as f:
        assert json.load(f) == {"format": "tapegrad-checkpoint-1", "keys": ["v"]}
    v.assign([0.0, 0.0])
    tf.train.Checkpoint(v=v).read(path).assert_consumed()
    assert v.numpy().tolist() == [1.0, 2.0]
    assert os.path.exists(path + ".data-00000-of-00001")
