// The experiment schema: the ONE table of ExperimentConfig's fields (docs/ARCHITECTURE.md,
// "One of each"). Each field has a dotted name (its path in an experiment file), one word that
// is its CLI flag (--lot-size) and its sweep parameter (lot_size), older spellings still read,
// a type, the range always accepted, a unit, a one-line help and accessors; its default is
// ExperimentConfig{}'s. The experiment file's reader and writer, config comparison, the range
// checks of validate(), the CLI's experiment flags and --help, sweep parameters and the panel's
// checks all come from this table.
//
// To add a field: add its member to ExperimentConfig (experiment_config.h) and one row to the
// table in experiment_schema_table.cpp; files, flags, sweeps, diffs and checks follow.
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::train {

enum class FieldType {
  Text,            // a free string (a data-set name or folder)
  Choice,          // one of choices()
  Integer,         // whole number in [low, high]
  Number,          // finite double, in [low, high] when a range is given
  OptionalNumber,  // a Number or nothing (null in a file, "none" as text)
  Boolean,         // true or false (a flag --word / --no-word)
  IntegerList,     // whole numbers in [low, high], "128,64" (or "128/64" inside a sweep's list)
};

// A field's value, whatever its type: monostate is "nothing" (an unset OptionalNumber).
using FieldValue =
    std::variant<std::monostate, bool, long long, double, std::string, std::vector<long long>>;

// An older spelling of a field's word, still read; `value` fixes the value it sets ("false"
// for --no-epoch-eval), empty when the old spelling takes one.
struct OldSpelling {
  std::string word;
  std::string value;
};

struct ExperimentField {
  std::string name;  // "training.lot_size": the section and key in an experiment file
  std::string word;  // "lot_size": the sweep parameter; the flag is --lot-size
  std::vector<OldSpelling> old;
  FieldType type = FieldType::Number;
  double low = 0, high = 0;  // the range always accepted; low > high: none (Number only)
  std::string unit;          // "examples", "epochs", "" when unitless
  std::string valueName;     // what --help shows for the value ("L"); empty for a Boolean
  std::string symbol;        // its usual symbol in a chart's legend ("σ=0.5"); empty: the word
  std::string help;          // one line
  std::vector<std::string> (*choices)() = nullptr;  // Choice only
  bool persisted = true;  // false: a run-time setting, not in files, flags or sweeps
  std::function<FieldValue(const ExperimentConfig&)> get;
  std::function<void(ExperimentConfig&, const FieldValue&)> set;  // a value of the field's type

  std::string section() const;  // "training"
  std::string key() const;      // "lot_size"
  std::string flag() const;     // "lot-size" (the word with dashes)
  bool hasRange() const { return low <= high; }
};

// Every field, in the order files and help list them.
const std::vector<ExperimentField>& experimentFields();
// The rows of the table (experiment_schema_table.cpp); experimentFields() keeps one copy.
std::vector<ExperimentField> makeExperimentFields();
// The field with this dotted name, or nullptr.
const ExperimentField* fieldNamed(const std::string& name);
// The persisted field with this word (or old word; `old` then says which), or nullptr.
const ExperimentField* fieldForWord(const std::string& word, const OldSpelling** old = nullptr);
// "--batch-size" style: a word with dashes for underscores.
std::string flagOf(const std::string& word);

// Reads text as a value of the field: "0.5", "adam", "true", "none", "128,64". Throws
// ConfigError "<where>: expected …, got '<at most 80 characters>'".
FieldValue parseFieldText(const ExperimentField& field, const std::string& text,
                          const std::string& where);
// The text parseFieldText reads back to the same value (numbers: the shortest that does).
std::string fieldText(const ExperimentField& field, const FieldValue& value);
// "an integer in [1, 1000000000]", "one of rdp, pld", "a number": what the field accepts.
std::string describeAccepted(const ExperimentField& field);

// Checks the value's type and the field's range, then sets it. Throws ConfigError naming
// `where` (the field's name when empty).
void setField(ExperimentConfig& config, const ExperimentField& field, const FieldValue& value,
              const std::string& where = {});

// Every field's value against its range (the one place the ranges are checked; validate()
// calls it): throws ConfigError "<field>: expected …, got …".
void checkFieldRanges(const ExperimentConfig& config);

}  // namespace epsilon::train
