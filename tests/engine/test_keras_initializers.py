"""tf.keras.initializers: by class and by name, statistics and exact ones."""
import numpy as np
import pytest

import tapegrad as tf

I = tf.keras.initializers


@pytest.mark.parametrize("name,std", [("he_uniform", np.sqrt(2 / 400)),
                                      ("he_normal", np.sqrt(2 / 400)),
                                      ("lecun_normal", np.sqrt(1 / 400)),
                                      ("lecun_uniform", np.sqrt(1 / 400)),
                                      ("glorot_normal", np.sqrt(2 / 700)),
                                      ("truncated_normal", None)])
def test_variance_scaling_family_by_name(name, std):
    v = I.get(name)((400, 300)).numpy()
    if std is not None:
        assert abs(v.std() - std) / std < 0.03


def test_uniform_limits_and_truncation():
    assert np.abs(I.HeUniform()((600, 10)).numpy()).max() <= np.sqrt(6 / 600)
    assert np.abs(I.TruncatedNormal(stddev=0.1)((200, 200)).numpy()).max() <= 0.2
    v = I.VarianceScaling(3.0, "fan_avg", "uniform")((10, 30)).numpy()
    assert np.abs(v).max() <= np.sqrt(3 * 3.0 / 20)


def test_orthogonal_and_identity():
    q = I.Orthogonal(gain=0.5)((3, 3, 8)).numpy().reshape(9, 8)
    np.testing.assert_allclose(q.T @ q, 0.25 * np.eye(8), atol=1e-5)
    np.testing.assert_array_equal(I.Identity(2.0)((2, 3)).numpy(), [[2, 0, 0], [0, 2, 0]])
    with pytest.raises(ValueError, match="2D"):
        I.Identity()((2,))
    with pytest.raises(ValueError, match="two-dimensional"):
        I.Orthogonal()((4,))


def test_bad_arguments():
    with pytest.raises(ValueError, match="mode"):
        I.VarianceScaling(mode="fan_sideways")
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: sideways"):
        I.get("sideways")
