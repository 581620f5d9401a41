// CSV parsing for the UCI sets (see csv_loader.h): every cell is checked, and errors give
// the file, the line and the column, what was expected and what was found.
#include "core/data/csv_loader.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "core/common/errors.h"
#include "core/data/byte_source.h"

namespace epsilon::data {

namespace {

struct CsvLine {
  long number = 0;  // 1-based line number in the file
  std::vector<std::string_view> cells;
};

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// The text of a CSV file, inflated if gzip'd, with a size cap.
std::string csvText(std::span<const std::byte> bytes, const std::string& source) {
  std::vector<std::byte> inflated;
  if (hasGzipMagic(bytes) || (source.size() > 3 && source.ends_with(".gz"))) {
    inflated = gunzip(bytes, source, kMaxCsvBytes);
    bytes = inflated;
  } else if (bytes.size() > kMaxCsvBytes) {
    throw DataError(source + ": " + std::to_string(bytes.size()) + " bytes, more than the " +
                    std::to_string(kMaxCsvBytes) + " a CSV file may have");
  }
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Splits into non-blank lines of comma-separated, trimmed cells.
std::vector<CsvLine> splitLines(std::string_view text) {
  std::vector<CsvLine> lines;
  long number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    if (trim(line).empty()) continue;
    CsvLine parsed{number, {}};
    std::size_t start = 0;
    while (true) {
      const auto comma = line.find(',', start);
      parsed.cells.push_back(
          trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    lines.push_back(std::move(parsed));
  }
  return lines;
}

std::string numberText(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string where(const std::string& source, const CsvLine& line, std::size_t column) {
  return source + ", line " + std::to_string(line.number) + ", column " +
         std::to_string(column + 1);
}

double parseNumber(const std::string& source, const CsvLine& line, std::size_t column) {
  const std::string_view cell = line.cells[column];
  double value = 0.0;
  const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (cell.empty() || error != std::errc() || end != cell.data() + cell.size() ||
      !std::isfinite(value)) {
    throw DataError(where(source, line, column) + ": expected a finite number, found '" +
                    std::string(cell) + "'");
  }
  return value;
}

int parseLabel(const std::string& source, const CsvLine& line, std::size_t column, int classCount) {
  const double value = parseNumber(source, line, column);
  if (value != std::floor(value) || value < 0 || value >= classCount) {
    throw DataError(where(source, line, column) + ": label " + std::string(line.cells[column]) +
                    " is out of range: expected an integer 0 to " + std::to_string(classCount - 1));
  }
  return static_cast<int>(value);
}

void checkFieldCount(const std::string& source, const CsvLine& line, std::size_t expected) {
  if (line.cells.size() != expected) {
    throw DataError(source + ", line " + std::to_string(line.number) + ": expected " +
                    std::to_string(expected) + " fields, found " +
                    std::to_string(line.cells.size()));
  }
}

// Fills a table from data lines of `featureCount` numbers then a label; `checkFeature`
// may reject a value (it returns an empty string when the value is fine).
template <class Check>
LabelledTable fillTable(const std::string& source, std::span<const CsvLine> lines,
                        std::size_t featureCount, std::vector<std::string> classNames,
                        Check&& checkFeature) {
  for (const CsvLine& line : lines) checkFieldCount(source, line, featureCount + 1);
  LabelledTable table;
  table.classNames = std::move(classNames);
  table.features.resize(static_cast<Eigen::Index>(lines.size()),
                        static_cast<Eigen::Index>(featureCount));
  table.labels.reserve(lines.size());
  for (std::size_t row = 0; row < lines.size(); ++row) {
    for (std::size_t column = 0; column < featureCount; ++column) {
      const double value = parseNumber(source, lines[row], column);
      const std::string problem = checkFeature(value);
      if (!problem.empty()) throw DataError(where(source, lines[row], column) + ": " + problem);
      table.features(static_cast<Eigen::Index>(row), static_cast<Eigen::Index>(column)) =
          static_cast<float>(value);
    }
    table.labels.push_back(
        parseLabel(source, lines[row], featureCount, static_cast<int>(table.classNames.size())));
  }
  return table;
}

}  // namespace

LabelledTable parseDigitsCsv(std::span<const std::byte> bytes, const std::string& source) {
  const std::string text = csvText(bytes, source);
  const auto lines = splitLines(text);
  if (lines.empty())
    throw DataError(source + ": no data rows; expected 64 pixel values and a label per row");
  std::vector<std::string> names;
  for (int digit = 0; digit < 10; ++digit) names.push_back(std::to_string(digit));
  return fillTable(source, lines, 64, std::move(names), [](double value) -> std::string {
    if (value == std::floor(value) && value >= 0 && value <= 16) return {};
    return "pixel value " + numberText(value) + " is out of range: expected an integer 0 to 16";
  });
}

LabelledTable parseHeaderedCsv(std::span<const std::byte> bytes, const std::string& source) {
  const std::string text = csvText(bytes, source);
  const auto lines = splitLines(text);
  if (lines.empty())
    throw DataError(source + ": empty; expected a header 'rows,features,class0,class1,...'");
  const CsvLine& header = lines.front();
  if (header.cells.size() < 4) {
    throw DataError(
        source + ", line " + std::to_string(header.number) +
        ": expected a header 'rows,features,class0,class1,...' with at least 4 fields, found " +
        std::to_string(header.cells.size()));
  }
  const double rows = parseNumber(source, header, 0);
  const double features = parseNumber(source, header, 1);
  if (rows != std::floor(rows) || rows < 1 || rows > 10'000'000) {
    throw DataError(where(source, header, 0) + ": expected a row count 1 to 10000000, found '" +
                    std::string(header.cells[0]) + "'");
  }
  if (features != std::floor(features) || features < 1 || features > 100'000) {
    throw DataError(where(source, header, 1) + ": expected a feature count 1 to 100000, found '" +
                    std::string(header.cells[1]) + "'");
  }
  std::vector<std::string> names;
  for (std::size_t i = 2; i < header.cells.size(); ++i) {
    if (header.cells[i].empty()) throw DataError(where(source, header, i) + ": empty class name");
    names.emplace_back(header.cells[i]);
  }
  const std::span<const CsvLine> data(lines.begin() + 1, lines.end());
  if (data.size() != static_cast<std::size_t>(rows)) {
    throw DataError(source + ": header declares " + std::string(header.cells[0]) + " rows, found " +
                    std::to_string(data.size()) + " data rows");
  }
  return fillTable(source, data, static_cast<std::size_t>(features), std::move(names),
                   [](double) { return std::string(); });
}

}  // namespace epsilon::data
