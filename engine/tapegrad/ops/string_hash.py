"""The hashes behind ``tf.strings.to_hash_bucket*`` and ``tf.fingerprint``, bit for bit as
TensorFlow computes them (pure Python on 64-bit unsigned integers):

- ``fingerprint64``: FarmHash's Fingerprint64 (its ``farmhashna`` 64-bit hash), used by
  ``to_hash_bucket_fast`` and ``tf.fingerprint``;
- ``hash64``: TensorFlow's own 64-bit MurmurHash2 variant with seed 0xDECAFCAFFE, used by
  ``to_hash_bucket``;
- ``siphash24``: SipHash-2-4 keyed by two 64-bit words, used by ``to_hash_bucket_strong``.

>>> hex(fingerprint64(b""))
'0x9ae16a3b2f90404f'
"""
import struct

_MASK = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F


def _u64(s, i):
    return struct.unpack_from("<Q", s, i)[0]


def _u32(s, i):
    return struct.unpack_from("<I", s, i)[0]


def _rotr(v, n):
    return v if n == 0 else ((v >> n) | (v << (64 - n))) & _MASK


def _shift_mix(v):
    return v ^ (v >> 47)


def _mix16(u, v, mul):
    """FarmHash's 128-to-64-bit mix with multiplier ``mul``."""
    a = ((u ^ v) * mul) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & _MASK
    b ^= b >> 47
    return (b * mul) & _MASK


def _short(s):
    n = len(s)
    if n >= 8:
        mul = _K2 + 2 * n
        a = (_u64(s, 0) + _K2) & _MASK
        b = _u64(s, n - 8)
        c = (_rotr(b, 37) * mul + a) & _MASK
        d = ((_rotr(a, 25) + b) * mul) & _MASK
        return _mix16(c, d, mul)
    if n >= 4:
        mul = _K2 + 2 * n
        return _mix16((n + (_u32(s, 0) << 3)) & _MASK, _u32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
    return _K2


def _ends(s, mul, k):
    """The 16 bytes at each end of ``s`` (17 to 64 bytes), the first word times ``k``: that
    product and the two words ``_mix16`` takes."""
    n = len(s)
    a = (_u64(s, 0) * k) & _MASK
    b = _u64(s, 8)
    c = (_u64(s, n - 8) * mul) & _MASK
    d = (_u64(s, n - 16) * _K2) & _MASK
    return (a, (_rotr((a + b) & _MASK, 43) + _rotr(c, 30) + d) & _MASK,
            (a + _rotr((b + _K2) & _MASK, 18) + c) & _MASK)


def _medium(s):
    """17 to 32 bytes."""
    mul = _K2 + 2 * len(s)
    _, u, v = _ends(s, mul, _K1)
    return _mix16(u, v, mul)


def _long(s):
    """33 to 64 bytes."""
    n = len(s)
    mul = _K2 + 2 * n
    a, y, v = _ends(s, mul, _K2)
    z = _mix16(y, v, mul)
    e = (_u64(s, 16) * mul) & _MASK
    f = _u64(s, 24)
    g = ((y + _u64(s, n - 32)) * mul) & _MASK
    h = ((z + _u64(s, n - 24)) * mul) & _MASK
    return _mix16((_rotr((e + f) & _MASK, 43) + _rotr(g, 30) + h) & _MASK,
                  (e + _rotr((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak32(s, i, a, b):
    """FarmHash's weak 128-bit hash of the 32 bytes at ``s[i:]`` with seeds ``a``, ``b``."""
    w, x, y, z = (_u64(s, i + 8 * k) for k in range(4))
    a = (a + w) & _MASK
    b = _rotr((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rotr(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def fingerprint64(s):
    """FarmHash Fingerprint64 of the bytes ``s`` (an int below 2**64)."""
    n = len(s)
    if n <= 16:
        return _short(s)
    if n <= 32:
        return _medium(s)
    if n <= 64:
        return _long(s)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _MASK
    z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
    v, w = (0, 0), (0, 0)
    x = (x * _K2 + _u64(s, 0)) & _MASK
    end = ((n - 1) // 64) * 64     # whole 64-byte blocks, leaving 1 to 64 bytes
    pos = 0
    while True:
        x = (_rotr((x + y + v[0] + _u64(s, pos + 8)) & _MASK, 37) * _K1) & _MASK
        y = (_rotr((y + v[1] + _u64(s, pos + 48)) & _MASK, 42) * _K1) & _MASK
        x ^= w[1]
        y = (y + v[0] + _u64(s, pos + 40)) & _MASK
        z = (_rotr((z + w[0]) & _MASK, 33) * _K1) & _MASK
        v = _weak32(s, pos, (v[1] * _K1) & _MASK, (x + w[0]) & _MASK)
        w = _weak32(s, pos + 32, (z + w[1]) & _MASK, (y + _u64(s, pos + 16)) & _MASK)
        z, x = x, z
        pos += 64
        if pos == end:
            break
    mul = _K1 + ((z & 0xFF) << 1)
    pos = n - 64                   # the last 64 bytes
    w0 = (w[0] + ((n - 1) & 63)) & _MASK
    v0 = (v[0] + w0) & _MASK
    w0 = (w0 + v0) & _MASK
    v, w = (v0, v[1]), (w0, w[1])
    x = (_rotr((x + y + v[0] + _u64(s, pos + 8)) & _MASK, 37) * mul) & _MASK
    y = (_rotr((y + v[1] + _u64(s, pos + 48)) & _MASK, 42) * mul) & _MASK
    x ^= (w[1] * 9) & _MASK
    y = (y + v[0] * 9 + _u64(s, pos + 40)) & _MASK
    z = (_rotr((z + w[0]) & _MASK, 33) * mul) & _MASK
    v = _weak32(s, pos, (v[1] * mul) & _MASK, (x + w[0]) & _MASK)
    w = _weak32(s, pos + 32, (z + w[1]) & _MASK, (y + _u64(s, pos + 16)) & _MASK)
    z, x = x, z
    return _mix16((_mix16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _MASK,
                  (_mix16(v[1], w[1], mul) + x) & _MASK, mul)


def hash64(s, seed=0xDECAFCAFFE):
    """TensorFlow's ``Hash64``: MurmurHash2's 64-bit mix over little-endian 8-byte words."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(s)
    h = (seed ^ (n * m)) & _MASK
    whole = n - n % 8
    for i in range(0, whole, 8):
        k = (_u64(s, i) * m) & _MASK
        k = ((k ^ (k >> r)) * m) & _MASK
        h = ((h ^ k) * m) & _MASK
    tail = s[whole:]
    if tail:
        for j in range(len(tail) - 1, -1, -1):
            h ^= tail[j] << (8 * j)
        h = (h * m) & _MASK
    h ^= h >> r
    h = (h * m) & _MASK
    return h ^ (h >> r)


def _rotl(v, n):
    return ((v << n) | (v >> (64 - n))) & _MASK


def siphash24(key0, key1, s):
    """SipHash-2-4 of the bytes ``s`` under the 128-bit key ``(key0, key1)``."""
    v0 = key0 ^ 0x736F6D6570736575
    v1 = key1 ^ 0x646F72616E646F6D
    v2 = key0 ^ 0x6C7967656E657261
    v3 = key1 ^ 0x7465646279746573

    def rounds(count):
        nonlocal v0, v1, v2, v3
        for _ in range(count):
            v0 = (v0 + v1) & _MASK
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _MASK
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _MASK
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _MASK
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)

    n = len(s)
    whole = n - n % 8
    # the last word: the leftover bytes, with the length's low byte on top
    last = int.from_bytes(s[whole:], "little") | ((n & 0xFF) << 56)
    for m in [_u64(s, i) for i in range(0, whole, 8)] + [last]:
        v3 ^= m
        rounds(2)
        v0 ^= m
    v2 ^= 0xFF
    rounds(4)
    return v0 ^ v1 ^ v2 ^ v3
