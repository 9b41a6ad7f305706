# Fit a line y = 3x - 1 with plain gradient descent, plotting the loss as it
# falls. plt.pause() sends the current figure to the plot panel mid-run.
import matplotlib.pyplot as plt
import tensorflow as tf

xs = tf.linspace(-1.0, 1.0, 32)
ys = 3.0 * xs - 1.0

slope = tf.Variable(0.0, name="slope")
offset = tf.Variable(0.0, name="offset")
rate = 0.2
losses = []

for step in range(60):
    with tf.GradientTape() as tape:
        error = slope * xs + offset - ys
        loss = tf.reduce_mean(error ** 2)
    d_slope, d_offset = tape.gradient(loss, [slope, offset])
    slope.assign_sub(rate * d_slope)
    offset.assign_sub(rate * d_offset)
    losses.append(float(loss))
    if step % 10 == 9:
        plt.clf()
        plt.plot(losses)
        plt.yscale("log")
        plt.xlabel("step")
        plt.ylabel("mean squared error")
        plt.pause(0.01)

print(f"slope  ~ {slope.numpy():.2f}")
print(f"offset ~ {offset.numpy():.2f}")
print("loss went down:", losses[-1] < losses[0] / 100)
