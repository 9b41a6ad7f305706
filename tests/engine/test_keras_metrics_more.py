"""Unit tests for the metrics in loss_metrics, confusion_counts, fbeta, correlation and iou
(hand-computed values), their lookups, serialization and use in compile/fit."""
import numpy as np
import pytest

import tapegrad as tf

M = tf.keras.metrics


def test_loss_metrics_average_the_loss_functions_with_weights():
    t, p = np.array([[0., 1.], [1., 0.]], "float32"), np.array([[0.2, 0.7], [0.6, 0.1]], "float32")
    per_example = tf.keras.losses.binary_crossentropy(t, p).numpy()
    m = M.BinaryCrossentropy()
    m.update_state(t, p, sample_weight=[1.0, 3.0])
    assert np.isclose(float(m.result()), (per_example[0] + 3 * per_example[1]) / 4)
    m.reset_state()
    assert float(m.result()) == 0.0
    assert M.BinaryCrossentropy(label_smoothing=0.1).get_config()["label_smoothing"] == 0.1


def test_cosine_similarity_metric_is_positive_for_parallel_vectors():
    assert np.isclose(float(M.CosineSimilarity()([[0., 1.]], [[0., 3.]])), 1.0)
    assert np.isclose(float(M.CosineSimilarity()([[1., 0.]], [[-2., 0.]])), -1.0)


def test_confusion_counts_single_and_several_thresholds():
    t, p = [0, 1, 1, 0], [0.7, 0.2, 0.6, 0.1]
    assert float(M.TruePositives()(t, p)) == 1.0
    assert float(M.FalsePositives()(t, p)) == 1.0
    assert float(M.TrueNegatives()(t, p, sample_weight=[1, 1, 1, 4])) == 4.0
    assert float(M.FalseNegatives()(t, p)) == 1.0
    several = M.TruePositives(thresholds=[0.1, 0.5, 0.65])
    several.update_state(t, p)
    np.testing.assert_array_equal(np.array(several.result()), [2.0, 1.0, 0.0])
    with pytest.raises(ValueError):
        M.TruePositives(thresholds=[1.5])


def test_rank_one_weights_weigh_rows_of_2d_predictions():
    m = M.TruePositives()
    m.update_state([[1, 1], [1, 1]], [[0.9, 0.9], [0.9, 0.9]], sample_weight=[1.0, 0.5])
    assert float(m.result()) == 3.0


def test_precision_at_recall_and_friends():
    t, p = [0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9]
    # at thresholds below 0.4 recall is 1 with precision 2/3; at 0.4..0.6 recall 0.5, precision
    # 1/2; above 0.6 recall 0.5 with precision 1.
    assert np.isclose(float(M.PrecisionAtRecall(0.5)(t, p)), 1.0)
    assert np.isclose(float(M.PrecisionAtRecall(recall=1.0)(t, p)), 2 / 3)
    assert np.isclose(float(M.RecallAtPrecision(0.6)(t, p)), 1.0)
    assert np.isclose(float(M.SensitivityAtSpecificity(1.0)(t, p)), 0.5)
    assert np.isclose(float(M.SpecificityAtSensitivity(1.0)(t, p)), 0.5)
    with pytest.raises(ValueError, match="recall"):
        M.PrecisionAtRecall(-0.1)
    assert M.RecallAtPrecision(0.3).get_config()["precision"] == 0.3


def test_f1_and_fbeta():
    t = [[1, 0], [0, 1], [1, 0]]
    p = [[0.9, 0.2], [0.6, 0.4], [0.3, 0.8]]  # argmax picks: 0, 0, 1
    per_class = M.F1Score()(t, p).numpy()
    np.testing.assert_allclose(per_class, [0.5, 0.0], atol=1e-6)
    assert np.isclose(float(M.F1Score(average="macro")(t, p)), 0.25)
    assert np.isclose(float(M.F1Score(average="micro")(t, p)), 1 / 3)
    assert np.isclose(float(M.F1Score(average="weighted")(t, p)), 0.5 * 2 / 3)
    f2 = M.FBetaScore(beta=2.0, threshold=0.5)(t, p).numpy()  # class 0: tp 1, fp 1, fn 1
    assert np.isclose(f2[0], 5 * 0.25 / (4 * 0.5 + 0.5))
    assert "beta" not in M.F1Score().get_config()
    with pytest.raises(ValueError, match="2D"):
        M.F1Score()([1, 0], [0.2, 0.8])
    with pytest.raises(ValueError, match="average"):
        M.F1Score(average="mean")


def test_r2_score_and_aggregations():
    t, p = np.array([[1.], [4.], [3.]]), np.array([[2.], [4.], [4.]])
    ss_res, ss_tot = 2.0, ((t - t.mean()) ** 2).sum()
    assert np.isclose(float(M.R2Score()(t, p)), 1 - ss_res / ss_tot)
    two = M.R2Score(class_aggregation=None)(np.hstack([t, t]), np.hstack([p, t])).numpy()
    np.testing.assert_allclose(two, [1 - ss_res / ss_tot, 1.0], rtol=1e-6)
    with pytest.raises(ValueError):
        M.R2Score(class_aggregation="median")


def test_correlations():
    t, p = [[0., 1., 2.], [1., 0., 2.]], [[0., 2., 4.], [2., 1., 0.]]
    np.testing.assert_allclose(M.pearson_correlation(t, p).numpy(), [1.0, -0.5], atol=1e-6)
    assert M.pearson_correlation(t, p).dtype == tf.float32
    same = M.concordance_correlation([[0., 1., 2.]], [[0., 1., 2.]]).numpy()
    np.testing.assert_allclose(same, [1.0], atol=1e-6)
    assert np.isclose(float(M.PearsonCorrelation()(t, p)), 0.25)


def test_iou_family():
    t, p = [0, 0, 1, 1], [0, 1, 0, 1]
    assert np.isclose(float(M.IoU(2, [0])(t, p)), 1 / 3)
    assert np.isclose(float(M.MeanIoU(2)(t, p)), 1 / 3)
    assert np.isclose(float(M.MeanIoU(3)(t, p)), 1 / 3)  # an absent class is skipped
    assert np.isclose(float(M.BinaryIoU(threshold=0.5)(t, [0.1, 0.5, 0.2, 0.7])), 1 / 3)
    one_hot = M.OneHotMeanIoU(2)([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])
    assert np.isclose(float(one_hot), 1.0)
    fractional = M.IoU(2, [0, 1])
    fractional.update_state(t, p, sample_weight=[0.5, 1, 1, 1])  # int64 truncates 0.5 to 0
    assert np.array(fractional.total_cm._value)[0, 0] == 0
    with pytest.raises(ValueError, match="out of range"):
        M.IoU(2, [2])
    assert M.IoU(2, [0]).result().dtype == tf.float32


def test_lookup_serialize_deserialize():
    assert type(M.get("f1_score")).__name__ == "F1Score"
    assert type(M.get("bce")).__name__ == "BinaryCrossentropy"
    assert type(M.get("true_negatives")).__name__ == "TrueNegatives"
    s = M.serialize(M.F1Score(average="macro", name="f"))
    assert s["class_name"] == "F1Score" and s["config"]["average"] == "macro"
    back = M.deserialize(s)
    assert type(back).__name__ == "F1Score" and back.name == "f"
    assert M.deserialize("TruePositives").get_config()["thresholds"] is None
    assert M.mse is tf.keras.losses.mean_squared_error and M.kld is tf.keras.losses.kld
    # as Keras 3: an unknown class name comes back as the name (recorded in
    # tests/conformance/fixtures/keras_serialization.json); get() then refuses it
    assert M.deserialize({"class_name": "NoSuchMetric", "config": {}}) == "NoSuchMetric"
    with pytest.raises(ValueError):
        M.get({"class_name": "NoSuchMetric", "config": {}})


def test_compile_fit_logs_new_metrics_by_object_and_name():
    x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
    y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss="binary_crossentropy",
                  metrics=["AUC", "true_positives", M.F1Score(threshold=0.5, name="f1")])
    history = model.fit(x, y, epochs=1, batch_size=4, verbose=0)
    assert sorted(history.history) == ["AUC", "f1", "loss", "true_positives"]
    assert isinstance(history.history["f1"][0], np.ndarray)
    assert history.history["f1"][0].shape == (1,)


def test_progress_line_shows_per_class_metrics_as_their_mean(capsys):
    x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
    y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss="binary_crossentropy",
                  metrics=[M.F1Score(threshold=0.5), M.TruePositives(thresholds=[0.0, 1.0], name="tp")])
    model.fit(x, y, epochs=1, batch_size=4, verbose=2)
    line = capsys.readouterr().out
    assert "f1_score: " in line and "tp: 2.0000" in line
    values = model.evaluate(x, y, verbose=0)
    np.testing.assert_array_equal(values[2], [4.0, 0.0])
