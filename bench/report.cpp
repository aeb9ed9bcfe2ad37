#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "cli.hpp"

namespace onepass::bench {
namespace {

std::string printf_string(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Records grouped by table title, tables in order of first appearance.
std::vector<std::pair<std::string, std::vector<const record*>>> by_table(const std::vector<record>& records) {
  std::vector<std::pair<std::string, std::vector<const record*>>> tables;
  for (const auto& r : records) {
    const std::string t = r.table();
    auto it = std::find_if(tables.begin(), tables.end(), [&](const auto& x) { return x.first == t; });
    if (it == tables.end()) {
      tables.push_back({t, {}});
      it = tables.end() - 1;
    }
    it->second.push_back(&r);
  }
  return tables;
}

std::string param_text(const param_value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<long long>(&v)) return std::to_string(*i);
  return printf_string("%g", std::get<double>(v));
}

double param_number(const record& r, std::string_view key, double fallback) {
  const param_value* v = r.param(key);
  if (!v) return fallback;
  if (const auto* i = std::get_if<long long>(v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(v)) return *d;
  return fallback;
}

// One table as rows of cells; the first row is the header.
std::vector<std::vector<std::string>> table_cells(const std::vector<const record*>& rows) {
  const bool per_block = std::any_of(rows.begin(), rows.end(), [](const record* r) { return r->param("batch"); });
  const record* base = nullptr;  // speed-ups are over the first verified row
  for (const record* r : rows)
    if (r->verified) {
      base = r;
      break;
    }
  // What a row's rate is a fraction of: the read-only ceiling for primitives that write
  // (almost) nothing (params.ceiling "read"); none for operation counts (params.rate
  // "ops", shown as Gops/s); the copy otherwise. Sorts (params.rate "keys") show keys per
  // second first: their GB/s counts a modelled traffic.
  auto has_param = [&](const char* key, const char* value) {
    return std::any_of(rows.begin(), rows.end(), [&](const record* r) {
      const param_value* v = r->param(key);
      return v && std::holds_alternative<std::string>(*v) && std::get<std::string>(*v) == value;
    });
  };
  const bool ops = has_param("rate", "ops");
  const bool of_read = has_param("ceiling", "read");
  const bool keys = has_param("rate", "keys");
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header = {"variant", "n", "median ms", "min-max ms"};
  if (ops) {
    header.push_back("Gops/s");
  } else {
    if (keys) header.push_back("Gkeys/s");
    header.push_back("GB/s");
    header.push_back(of_read ? "% of read" : "% of copy");
  }
  for (const char* h : {"passes", "speed-up"}) header.push_back(h);
  // Blocks of a batch run concurrently: this is the launch's time / blocks, in ns.
  if (per_block) header.insert(header.begin() + 4, "ns/block");
  header.push_back("note");
  cells.push_back(header);
  for (const record* r : rows) {
    std::vector<std::string> row = {r->variant, format_count(r->n)};
    const double passes = param_number(*r, "passes", 1.0);
    std::string note;
    if (const param_value* v = r->param("note")) note = param_text(*v);
    if (r->verified) {
      row.push_back(format_ms(r->ms_median));
      row.push_back(format_ms(r->ms_min) + "-" + format_ms(r->ms_max));
      if (per_block) {
        const double batch = param_number(*r, "batch", 0);
        row.push_back(batch > 0 ? printf_string("%.2f", r->ms_median * 1e6 / batch) : "-");
      }
      if (ops) {
        row.push_back(printf_string("%.2f", r->items_per_s / 1e9));
      } else {
        if (keys) row.push_back(printf_string("%.2f", r->items_per_s / 1e9));
        row.push_back(format_gbps(r->gbps));
        row.push_back(format_pct(of_read ? r->pct_of_read : r->pct_of_copy));
      }
      row.push_back(printf_string("%.1f", passes));
      const double s = r->items_per_s / base->items_per_s;
      row.push_back(s >= 100 ? printf_string("%.0fx", s) : s >= 10 ? printf_string("%.1fx", s) : printf_string("%.2fx", s));
    } else {
      row.push_back("FAILED");
      while (row.size() + 1 < header.size()) row.push_back("-");
      if (const param_value* e = r->param("error")) note = param_text(*e);
    }
    row.push_back(note);
    cells.push_back(row);
  }
  return cells;
}

// A pipe would end the cell early.
std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

bool right_aligned(const std::string& column) { return column != "variant" && column != "note"; }

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  return printf_string("%.9g", v);
}

std::string json_value(const param_value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return json_string(*s);
  if (const auto* i = std::get_if<long long>(&v)) return std::to_string(*i);
  return json_number(std::get<double>(v));
}

}  // namespace

const param_value* record::param(std::string_view key) const {
  for (const auto& [k, v] : params)
    if (k == key) return &v;
  return nullptr;
}

std::string record::table() const {
  const param_value* t = param("table");
  return t ? param_text(*t) : std::string();
}

record timed_record(std::string primitive, std::string variant, std::string dtype, long long n,
                    std::vector<std::pair<std::string, param_value>> params, timing t, double bytes,
                    double copy_gbps, double read_gbps) {
  record r{std::move(primitive), std::move(variant), std::move(dtype), n, std::move(params)};
  r.verified = true;
  r.ms_median = t.median;
  r.ms_min = t.min;
  r.ms_max = t.max;
  r.gbps = bytes / (t.median * 1e6);
  r.pct_of_copy = 100.0 * r.gbps / copy_gbps;
  r.pct_of_read = 100.0 * r.gbps / read_gbps;
  r.items_per_s = static_cast<double>(n) / (t.median * 1e-3);
  return r;
}

record failed_record(std::string primitive, std::string variant, std::string dtype, long long n,
                     std::vector<std::pair<std::string, param_value>> params, std::string error) {
  record r{std::move(primitive), std::move(variant), std::move(dtype), n, std::move(params)};
  r.params.emplace_back("error", std::move(error));
  return r;
}

std::string format_ms(double ms) {
  return printf_string(ms >= 100 ? "%.1f" : ms >= 10 ? "%.2f" : ms >= 1 ? "%.3f" : ms >= 0.01 ? "%.4f" : "%.5f", ms);
}

std::string format_gbps(double gbps) {
  return printf_string(gbps >= 100 ? "%.0f" : gbps >= 10 ? "%.1f" : gbps >= 1 ? "%.2f" : "%.3f", gbps);
}

std::string format_pct(double pct) {
  return printf_string(pct >= 10 ? "%.1f%%" : pct >= 1 ? "%.2f%%" : pct >= 0.01 ? "%.3f%%" : "%.2g%%", pct);
}

std::string format_tables(const std::vector<record>& records) {
  std::ostringstream os;
  for (const auto& [title, rows] : by_table(records)) {
    const auto cells = table_cells(rows);
    std::vector<std::size_t> width(cells[0].size(), 0);
    for (const auto& row : cells)
      for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    os << "\n" << title << "\n";
    for (const auto& row : cells) {
      std::string line = " ";
      for (std::size_t i = 0; i < row.size(); ++i) {
        const std::string pad(width[i] - row[i].size(), ' ');
        line += " " + (right_aligned(cells[0][i]) ? pad + row[i] : row[i] + pad);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      os << line << "\n";
    }
  }
  return os.str();
}

std::vector<std::string> header_lines(const run_info& info) {
  std::vector<std::string> lines;
  lines.push_back(info.tool + ", " + info.gpu + " (" + std::to_string(info.sm_count) + " SMs), CUDA " + info.cuda +
                  ", " + info.date);
  lines.insert(lines.end(), info.details.begin(), info.details.end());
  lines.push_back("method: CUDA events; " + std::to_string(info.warmup) + " warm-up runs, then the median (min-max) of " +
                  std::to_string(info.iters) + " runs; L2 flushed before every run (" +
                  std::to_string(info.l2_flush_bytes >> 20) +
                  " MiB read, leaving L2 clean); every output verified against the CPU reference before it is timed");
  if (info.copy_gbps > 0)
    lines.push_back("ceilings measured in this run: copy " + format_gbps(info.copy_gbps) +
                    " GB/s (bytes read + written), read-only " + format_gbps(info.read_gbps) + " GB/s");
  lines.push_back("command: " + info.command);
  return lines;
}

std::string format_markdown(const run_info& info, const std::vector<record>& records) {
  std::ostringstream os;
  os << "# onepass-bench: " << info.gpu << "\n\n";
  for (const auto& line : header_lines(info)) os << "- " << line << "\n";
  for (const auto& [title, rows] : by_table(records)) {
    const auto cells = table_cells(rows);
    os << "\n### " << title << "\n\n";
    for (std::size_t r = 0; r < cells.size(); ++r) {
      os << "|";
      for (const auto& c : cells[r]) os << " " << markdown_cell(c) << " |";
      os << "\n";
      if (r == 0) {
        os << "|";
        for (const auto& h : cells[0]) os << (right_aligned(h) ? "---:|" : "---|");
        os << "\n";
      }
    }
  }
  return os.str();
}

std::string format_json(const run_info& info, const std::vector<record>& records) {
  std::ostringstream os;
  os << "{\n";
  os << "  \"schema\": \"onepass-bench/1\",\n";
  os << "  \"tool\": " << json_string(info.tool) << ",\n";
  os << "  \"gpu\": " << json_string(info.gpu) << ",\n";
  os << "  \"sm_count\": " << info.sm_count << ",\n";
  os << "  \"cuda\": " << json_string(info.cuda) << ",\n";
  os << "  \"date\": " << json_string(info.date) << ",\n";
  os << "  \"command\": " << json_string(info.command) << ",\n";
  os << "  \"method\": {\"warmup\": " << info.warmup << ", \"iters\": " << info.iters
     << ", \"l2_flush_bytes\": " << info.l2_flush_bytes << "},\n";
  os << "  \"copy_gbps\": " << json_number(info.copy_gbps) << ",\n";
  os << "  \"read_gbps\": " << json_number(info.read_gbps) << ",\n";
  os << "  \"records\": [";
  for (std::size_t i = 0; i < records.size(); ++i) {
    const record& r = records[i];
    auto timed = [&](double v) { return r.verified ? json_number(v) : std::string("null"); };
    os << (i ? "," : "") << "\n    {\"primitive\": " << json_string(r.primitive)
       << ", \"variant\": " << json_string(r.variant) << ", \"dtype\": " << json_string(r.dtype)
       << ", \"n\": " << r.n << ", \"params\": {";
    for (std::size_t p = 0; p < r.params.size(); ++p)
      os << (p ? ", " : "") << json_string(r.params[p].first) << ": " << json_value(r.params[p].second);
    os << "}, \"ms_median\": " << timed(r.ms_median) << ", \"ms_min\": " << timed(r.ms_min)
       << ", \"ms_max\": " << timed(r.ms_max) << ", \"gbps\": " << timed(r.gbps)
       << ", \"pct_of_copy\": " << timed(r.pct_of_copy) << ", \"pct_of_read\": " << timed(r.pct_of_read)
       << ", \"items_per_s\": " << timed(r.items_per_s) << ", \"verified\": " << (r.verified ? "true" : "false") << "}";
  }
  os << "\n  ]\n}\n";
  return os.str();
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace onepass::bench
