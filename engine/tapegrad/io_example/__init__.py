"""``tf.train.Example`` and its relatives as small message classes (``messages``), protobuf's
wire format (``wire``), and ``tf.io.parse_example`` and its relatives (``parsing``)."""
