// onepass._onepass: the nanobind module behind the Python package. It only dispatches on
// the element type and forwards addresses to the kernels (api.h); argument checking,
// array interop, streams and allocation live in the Python layer (python/onepass/).
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

#include "api.h"

namespace nb = nanobind;
using namespace onepass_py;

namespace {

[[noreturn]] void unsupported(const char* what, int code) {
  throw nb::type_error((std::string("onepass: ") + what + ": element type code " + std::to_string(code) +
                        " is not supported by this call")
                           .c_str());
}

// Calls f(T*) for the six scan / reduce / sort types.
template <class F>
decltype(auto) six(int code, const char* what, F&& f) {
  switch (static_cast<dtype>(code)) {
    case dtype::int32: return f(static_cast<int*>(nullptr));
    case dtype::uint32: return f(static_cast<unsigned*>(nullptr));
    case dtype::int64: return f(static_cast<long long*>(nullptr));
    case dtype::uint64: return f(static_cast<unsigned long long*>(nullptr));
    case dtype::float32: return f(static_cast<float*>(nullptr));
    case dtype::float64: return f(static_cast<double*>(nullptr));
    default: unsupported(what, code);
  }
}

// The segmented scans' four types.
template <class F>
decltype(auto) four(int code, const char* what, F&& f) {
  switch (static_cast<dtype>(code)) {
    case dtype::int32: return f(static_cast<int*>(nullptr));
    case dtype::int64: return f(static_cast<long long*>(nullptr));
    case dtype::float32: return f(static_cast<float*>(nullptr));
    case dtype::float64: return f(static_cast<double*>(nullptr));
    default: unsupported(what, code);
  }
}

// Histogram samples: 8/16/32-bit integers and float.
template <class F>
decltype(auto) samples(int code, F&& f) {
  switch (static_cast<dtype>(code)) {
    case dtype::int8: return f(static_cast<signed char*>(nullptr));
    case dtype::uint8: return f(static_cast<unsigned char*>(nullptr));
    case dtype::int16: return f(static_cast<short*>(nullptr));
    case dtype::uint16: return f(static_cast<unsigned short*>(nullptr));
    case dtype::int32: return f(static_cast<int*>(nullptr));
    case dtype::uint32: return f(static_cast<unsigned*>(nullptr));
    case dtype::float32: return f(static_cast<float*>(nullptr));
    default: unsupported("histogram", code);
  }
}

// Items moved by size.
template <class F>
decltype(auto) by_size(int bytes, F&& f) {
  switch (bytes) {
    case 1: return f(static_cast<std::uint8_t*>(nullptr));
    case 2: return f(static_cast<std::uint16_t*>(nullptr));
    case 4: return f(static_cast<std::uint32_t*>(nullptr));
    case 8: return f(static_cast<std::uint64_t*>(nullptr));
    default:
      throw nb::type_error(("onepass: items of " + std::to_string(bytes) + " bytes are not supported").c_str());
  }
}

template <class P>
using elem = std::remove_pointer_t<P>;

}  // namespace

NB_MODULE(_onepass, m) {
  m.doc() = "onepass kernels (internal: use the onepass package)";
  m.def("device_count", &device_count);
  m.def("stream_is_capturing", &stream_is_capturing);

  m.def("scan_workspace", [](int dt, long long n, int det) {
    return six(dt, "scan", [&](auto* t) { return scan_workspace<elem<decltype(t)>>(n, det); });
  });
  m.def("scan", [](int dt, int o, bool inclusive, addr in, long long n, addr out, std::uint64_t init, int det,
                   int device, addr stream, addr ws, std::size_t ws_bytes) {
    six(dt, "scan", [&](auto* t) {
      scan<elem<decltype(t)>>(op(o), inclusive, in, n, out, init, det, launch{device, stream, ws, ws_bytes});
    });
  });
  m.def("reduce_workspace", [](int dt, long long n, int det) {
    return six(dt, "reduce", [&](auto* t) { return reduce_workspace<elem<decltype(t)>>(n, det); });
  });
  m.def("reduce", [](int dt, int o, addr in, long long n, addr out, std::uint64_t init, int det, int device,
                     addr stream, addr ws, std::size_t ws_bytes) {
    six(dt, "reduce", [&](auto* t) {
      reduce<elem<decltype(t)>>(op(o), in, n, out, init, det, launch{device, stream, ws, ws_bytes});
    });
  });

  m.def("histogram_range_workspace", [](int dt, bool counts64, int num_boundaries) {
    return samples(dt, [&](auto* t) { return histogram_range_workspace<elem<decltype(t)>>(counts64, num_boundaries); });
  });
  m.def("histogram_even", [](int dt, bool counts64, addr in, long long n, int bins, long long lower_i,
                             long long upper_i, double lower_f, double upper_f, addr counts, int device, addr stream) {
    samples(dt, [&](auto* t) {
      histogram_even<elem<decltype(t)>>(counts64, in, n, bins, lower_i, upper_i, lower_f, upper_f, counts,
                                        launch{device, stream, 0, 0});
    });
  });
  m.def("histogram_range", [](int dt, bool counts64, addr in, long long n, const std::vector<double>& boundaries,
                              addr counts, int device, addr stream, addr ws, std::size_t ws_bytes) {
    samples(dt, [&](auto* t) {
      histogram_range<elem<decltype(t)>>(counts64, in, n, boundaries.data(), static_cast<int>(boundaries.size()),
                                         counts, launch{device, stream, ws, ws_bytes});
    });
  });

  m.def("select_workspace", [](int itemsize, long long n) {
    return by_size(itemsize, [&](auto* t) { return select_workspace<elem<decltype(t)>>(n); });
  });
  m.def("select_flagged", [](int itemsize, addr in, addr flags, long long n, addr out, addr count, int device,
                             addr stream, addr ws, std::size_t ws_bytes) {
    by_size(itemsize, [&](auto* t) {
      select_flagged<elem<decltype(t)>>(in, flags, n, out, count, launch{device, stream, ws, ws_bytes});
    });
  });
  m.def("select_if", [](int dt, int c, std::uint64_t value, addr in, long long n, addr out, addr count, int device,
                        addr stream, addr ws, std::size_t ws_bytes) {
    six(dt, "select_if", [&](auto* t) {
      select_if<elem<decltype(t)>>(cmp(c), value, in, n, out, count, launch{device, stream, ws, ws_bytes});
    });
  });
  m.def("partition", [](int dt, int c, std::uint64_t value, addr in, long long n, addr out_selected,
                        addr out_rejected, addr count, int device, addr stream, addr ws, std::size_t ws_bytes) {
    six(dt, "partition", [&](auto* t) {
      partition<elem<decltype(t)>>(cmp(c), value, in, n, out_selected, out_rejected, count,
                                   launch{device, stream, ws, ws_bytes});
    });
  });
  m.def("unique", [](int dt, addr in, long long n, addr out, addr count, int device, addr stream, addr ws,
                     std::size_t ws_bytes) {
    six(dt, "unique", [&](auto* t) { unique<elem<decltype(t)>>(in, n, out, count, launch{device, stream, ws, ws_bytes}); });
  });

  m.def("sort_workspace", [](int dt, int value_bytes, long long n) {
    return six(dt, "sort", [&](auto* t) { return sort_workspace<elem<decltype(t)>>(value_bytes, n); });
  });
  m.def("sort", [](int dt, int value_bytes, addr keys_in, addr keys_out, addr values_in, addr values_out,
                   long long n, bool descending, int begin_bit, int end_bit, int device, addr stream, addr ws,
                   std::size_t ws_bytes) {
    six(dt, "sort", [&](auto* t) {
      sort<elem<decltype(t)>>(value_bytes, keys_in, keys_out, values_in, values_out, n, descending, begin_bit,
                              end_bit, launch{device, stream, ws, ws_bytes});
    });
  });

  m.def("segmented_scan_workspace", [](int dt, long long n, int det) {
    return four(dt, "segmented scan", [&](auto* t) { return segmented_scan_workspace<elem<decltype(t)>>(n, det); });
  });
  m.def("segmented_scan_offsets_workspace", [](int dt, int offset_bytes, long long n, int det) {
    return four(dt, "segmented scan",
                [&](auto* t) { return segmented_scan_offsets_workspace<elem<decltype(t)>>(offset_bytes, n, det); });
  });
  m.def("segmented_scan_flags", [](int dt, int o, bool inclusive, addr in, addr flags, long long n, addr out,
                                   std::uint64_t init, int det, int device, addr stream, addr ws,
                                   std::size_t ws_bytes) {
    four(dt, "segmented scan", [&](auto* t) {
      segmented_scan_flags<elem<decltype(t)>>(op(o), inclusive, in, flags, n, out, init, det,
                                              launch{device, stream, ws, ws_bytes});
    });
  });
  m.def("segmented_scan_offsets", [](int dt, int o, bool inclusive, addr in, long long n, int offset_bytes,
                                     addr begin, addr end, long long count, bool copy_gaps, addr out,
                                     std::uint64_t init, int det, int device, addr stream, addr ws,
                                     std::size_t ws_bytes) {
    four(dt, "segmented scan", [&](auto* t) {
      segmented_scan_offsets<elem<decltype(t)>>(op(o), inclusive, in, n, offset_bytes, begin, end, count, copy_gaps,
                                                out, init, det, launch{device, stream, ws, ws_bytes});
    });
  });
  m.def("scan_by_key", [](int dt, int o, bool inclusive, int key_bytes, addr keys, addr in, long long n, addr out,
                          std::uint64_t init, int det, int device, addr stream, addr ws, std::size_t ws_bytes) {
    four(dt, "scan by key", [&](auto* t) {
      scan_by_key<elem<decltype(t)>>(op(o), inclusive, key_bytes, keys, in, n, out, init, det,
                                     launch{device, stream, ws, ws_bytes});
    });
  });

  m.def("rms_norm", [](int dt, addr x, addr weight, addr y, long long rows, long long width, float eps, int device,
                       addr stream) {
    const launch l{device, stream, 0, 0};
    if (dt == static_cast<int>(dtype::float32)) return rms_norm<float>(x, weight, y, rows, width, eps, l);
    if (dt == static_cast<int>(dtype::bfloat16)) return rms_norm<bf16_bits>(x, weight, y, rows, width, eps, l);
    unsupported("rms_norm", dt);
  });
}
