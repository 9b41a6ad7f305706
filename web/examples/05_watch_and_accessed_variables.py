# tape.watch(x) makes the tape follow a tensor it would otherwise ignore.
# watch_accessed_variables=False turns off automatic watching, so only what
# you watch yourself is followed.
import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
print("dy/dx with watch:", tape.gradient(y, x).numpy())     # 2 * 3 = 6

a = tf.Variable(1.5, name="a")
b = tf.Variable(4.0, name="b")
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(a)
    z = a * b

da, db = tape.gradient(z, [a, b])
print("dz/da:", da.numpy())            # b = 4
print("dz/db:", db)                    # b was never watched
print("watched:", [v.name for v in tape.watched_variables()])
