# A tape is spent after one gradient call. persistent=True keeps its
# records, so you can ask several questions of the same forward pass.
import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    square = x * x
    cube = square * x

print("d(square)/dx:", tape.gradient(square, x).numpy())   # 2x   = 6
print("d(cube)/dx:  ", tape.gradient(cube, x).numpy())     # 3x^2 = 27
del tape

with tf.GradientTape() as once:
    once.watch(x)
    y = x * x
once.gradient(y, x)
try:
    once.gradient(y, x)
except RuntimeError as err:
    print("second call on a non-persistent tape:", type(err).__name__)
