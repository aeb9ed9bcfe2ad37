"""Without a GPU the package imports, and the first call raises RuntimeError saying so."""

import pytest

import onepass
from onepass import _onepass


def _has_gpu():
    try:
        return _onepass.device_count() > 0
    except RuntimeError:
        return False


@pytest.mark.skipif(_has_gpu(), reason="a GPU is present")
def test_first_call_without_gpu_raises_runtime_error():
    class FakeCuda:
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<i4", "data": (0x7F0000000000, False),
                                    "strides": None, "version": 3}

    with pytest.raises(RuntimeError, match="no CUDA GPU"):
        onepass.cumsum(FakeCuda())
    with pytest.raises(RuntimeError, match="no CUDA GPU"):
        _onepass.device_count()


def test_public_names_exist():
    for name in onepass.__all__:
        assert callable(getattr(onepass, name)), name
    assert onepass.__version__
