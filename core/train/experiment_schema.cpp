#include "core/train/experiment_schema.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::train {

namespace {

using Type = FieldType;

constexpr double kExactIntegers = 9007199254740992.0;  // 2^53, shown as such in messages

std::string rangeNumber(double v) {
  if (v == kExactIntegers) return "2^53";
  return shortNumber(v);
}

[[noreturn]] void bad(const std::string& where, const std::string& expected,
                      const std::string& got) {
  throw ConfigError(where + ": expected " + expected + ", got " + got);
}

std::string quoted(const std::string& text) {
  return "'" + clippedText(text) + "'";
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

std::optional<double> toNumber(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<long long> toInteger(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string valueText(const FieldValue& v) {
  if (std::holds_alternative<long long>(v)) return std::to_string(std::get<long long>(v));
  if (std::holds_alternative<double>(v)) return shortNumber(std::get<double>(v));
  if (std::holds_alternative<bool>(v)) return std::get<bool>(v) ? "true" : "false";
  if (std::holds_alternative<std::string>(v)) return quoted(std::get<std::string>(v));
  if (std::holds_alternative<std::vector<long long>>(v)) {
    std::string list;
    for (long long n : std::get<std::vector<long long>>(v))
      list += (list.empty() ? "" : ",") + std::to_string(n);
    return "[" + list + "]";
  }
  return "nothing";
}

bool inRange(const ExperimentField& f, double v) {
  return !f.hasRange() || (v >= f.low && v <= f.high);
}

// The value's type and range; throws naming `where`.
void check(const ExperimentField& f, const FieldValue& v, const std::string& where) {
  const auto wrong = [&] { bad(where, describeAccepted(f), valueText(v)); };
  switch (f.type) {
    case Type::Text:
      if (!std::holds_alternative<std::string>(v)) wrong();
      if (std::get<std::string>(v).empty()) bad(where, "a name", "nothing");
      return;
    case Type::Choice: {
      if (!std::holds_alternative<std::string>(v)) wrong();
      const auto names = f.choices();
      if (std::find(names.begin(), names.end(), std::get<std::string>(v)) == names.end()) wrong();
      return;
    }
    case Type::Integer:
      if (!std::holds_alternative<long long>(v) ||
          !inRange(f, static_cast<double>(std::get<long long>(v))))
        wrong();
      return;
    case Type::OptionalNumber:
      if (std::holds_alternative<std::monostate>(v)) return;
      [[fallthrough]];
    case Type::Number:
      if (!std::holds_alternative<double>(v) || !std::isfinite(std::get<double>(v)) ||
          !inRange(f, std::get<double>(v)))
        wrong();
      return;
    case Type::Boolean:
      if (!std::holds_alternative<bool>(v)) wrong();
      return;
    case Type::IntegerList:
      if (!std::holds_alternative<std::vector<long long>>(v)) wrong();
      for (long long n : std::get<std::vector<long long>>(v))
        if (!inRange(f, static_cast<double>(n))) wrong();
      return;
  }
}

}  // namespace

std::string ExperimentField::section() const {
  return name.substr(0, name.find('.'));
}
std::string ExperimentField::key() const {
  return name.substr(name.find('.') + 1);
}
std::string ExperimentField::flag() const {
  return flagOf(word);
}

std::string flagOf(const std::string& word) {
  std::string flag = word;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

const std::vector<ExperimentField>& experimentFields() {
  static const std::vector<ExperimentField> table = makeExperimentFields();
  return table;
}

const ExperimentField* fieldNamed(const std::string& name) {
  for (const auto& f : experimentFields())
    if (f.name == name) return &f;
  return nullptr;
}

const ExperimentField* fieldForWord(const std::string& word, const OldSpelling** old) {
  if (old) *old = nullptr;
  for (const auto& f : experimentFields()) {
    if (!f.persisted) continue;
    if (f.word == word) return &f;
    for (const auto& o : f.old) {
      if (o.word != word) continue;
      if (old) *old = &o;
      return &f;
    }
  }
  return nullptr;
}

std::string describeAccepted(const ExperimentField& f) {
  const std::string range =
      f.hasRange() ? " in [" + rangeNumber(f.low) + ", " + rangeNumber(f.high) + "]" : "";
  switch (f.type) {
    case Type::Text:
      return "a name";
    case Type::Choice:
      return "one of " + joined(f.choices());
    case Type::Integer:
      return "an integer" + range;
    case Type::Number:
      return "a number" + range;
    case Type::OptionalNumber:
      return "a number or none";
    case Type::Boolean:
      return "true or false";
    case Type::IntegerList:
      return "integers" + range + " separated by commas";
  }
  return {};
}

FieldValue parseFieldText(const ExperimentField& f, const std::string& text,
                          const std::string& where) {
  const auto wrong = [&]() -> FieldValue { bad(where, describeAccepted(f), quoted(text)); };
  FieldValue value;
  switch (f.type) {
    case Type::Text:
    case Type::Choice:
      value = text;
      break;
    case Type::Integer:
      if (const auto n = toInteger(text))
        value = *n;
      else
        return wrong();
      break;
    case Type::OptionalNumber:
      if (text == "none") return std::monostate{};
      [[fallthrough]];
    case Type::Number:
      if (const auto d = toNumber(text))
        value = *d;
      else
        return wrong();
      break;
    case Type::Boolean:
      if (text == "true" || text == "1")
        value = true;
      else if (text == "false" || text == "0")
        value = false;
      else
        return wrong();
      break;
    case Type::IntegerList: {
      std::vector<long long> list;
      std::size_t start = 0;
      while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.find('/', start));
        const std::string part = text.substr(start, end - start);
        if (!part.empty()) {
          const auto n = toInteger(part);
          if (!n) return wrong();
          list.push_back(*n);
        }
        if (end == std::string::npos) break;
        start = end + 1;
      }
      if (list.empty()) return wrong();
      value = list;
      break;
    }
  }
  check(f, value, where);
  return value;
}

std::string fieldText(const ExperimentField& f, const FieldValue& v) {
  if (std::holds_alternative<std::monostate>(v)) return "none";
  if (std::holds_alternative<double>(v)) {
    // The shortest text that reads back as the same double ("0.1", not "0.10000000000000001").
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, std::get<double>(v)).ptr;
    return std::string(buffer, end);
  }
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  if (std::holds_alternative<std::vector<long long>>(v)) {
    std::string list;
    for (long long n : std::get<std::vector<long long>>(v))
      list += (list.empty() ? "" : ",") + std::to_string(n);
    return list;
  }
  (void)f;
  return valueText(v);
}

void setField(ExperimentConfig& config, const ExperimentField& f, const FieldValue& value,
              const std::string& where) {
  check(f, value, where.empty() ? f.name : where);
  f.set(config, value);
}

void checkFieldRanges(const ExperimentConfig& config) {
  for (const auto& f : experimentFields()) {
    const bool ranged = f.type == Type::Integer || f.type == Type::IntegerList ||
                        (f.type == Type::Number && f.hasRange());
    if (ranged) check(f, f.get(config), f.name);
  }
}

}  // namespace epsilon::train
