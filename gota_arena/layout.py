"""numpy dtypes of the C structs of gota.h, built from cffi's field offsets and sizes.

A dtype built here lays its fields exactly where the compiler put them, so an array
over C memory (``np.frombuffer(ffi.buffer(...))``) reads the structs without copying.
"""
import numpy as np

from ._native import ffi

_SCALARS = {
    "int8_t": "i1", "uint8_t": "u1", "int16_t": "i2", "uint16_t": "u2",
    "int32_t": "i4", "uint32_t": "u4", "int64_t": "i8", "uint64_t": "u8",
    "char": "i1", "signed char": "i1", "unsigned char": "u1",
    "short": "i2", "int": "i4", "long long": "i8", "float": "f4", "double": "f8",
}


def _field_format(ctype):
    if ctype.kind == "array":
        return (_field_format(ctype.item), (ctype.length,))
    if ctype.kind == "primitive" and ctype.cname in _SCALARS:
        return np.dtype(_SCALARS[ctype.cname]).newbyteorder("=")
    raise TypeError(f"no numpy type for C field type {ctype.cname!r}")


def struct_dtype(cname: str) -> np.dtype:
    """A numpy dtype matching the C struct ``cname`` field for field."""
    ctype = ffi.typeof(cname)
    names, formats, offsets = [], [], []
    for name, field in ctype.fields:
        names.append(name)
        formats.append(_field_format(field.type))
        offsets.append(field.offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": ffi.sizeof(ctype)})


UNIT_DTYPE = struct_dtype("GotaUnit")
EVENT_DTYPE = struct_dtype("GotaEvent")
TILE_DTYPE = struct_dtype("GotaTile")
INFO_DTYPE = struct_dtype("GotaMatchInfo")
