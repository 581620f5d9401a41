// Values for tests of the experiment schema (core/train/experiment_schema.h): each field moved
// away from a config's value by a value the table itself chooses, so a test over every field
// covers a field added tomorrow without being edited.
#pragma once

#include "core/train/experiment_schema.h"

namespace epsilon::test {

// A value of the field other than its value in `from`, in its range (a choice: the last one
// that differs, so the network is pca-mlp, the one that uses every model field).
inline train::FieldValue otherValue(const train::ExperimentField& f,
                                    const train::ExperimentConfig& from = {}) {
  const train::FieldValue initial = f.get(from);
  switch (f.type) {
    case train::FieldType::Text:
      return std::string("spiral");
    case train::FieldType::Choice: {
      const auto names = f.choices();
      for (auto it = names.rbegin(); it != names.rend(); ++it)
        if (train::FieldValue(*it) != initial) return *it;
      break;
    }
    case train::FieldType::Integer: {
      const long long n = std::get<long long>(initial) + 3;
      return n <= f.high ? n : static_cast<long long>(f.low);
    }
    case train::FieldType::Number: {
      // Digits a rounding would lose; downwards when up leaves the range (a share at 1).
      const double up = std::get<double>(initial) + 0.123456789012345;
      return f.low <= f.high && up > f.high ? std::get<double>(initial) - 0.123456789012345 : up;
    }
    case train::FieldType::OptionalNumber:
      return 0.3;  // both default to none
    case train::FieldType::Boolean:
      return !std::get<bool>(initial);
    case train::FieldType::IntegerList:
      return std::vector<long long>{24, 8};
  }
  return initial;
}

// Every file field away from its default.
inline train::ExperimentConfig everyFieldAway() {
  train::ExperimentConfig c;
  for (const train::ExperimentField& f : train::experimentFields())
    if (f.persisted) train::setField(c, f, otherValue(f));
  return c;
}

}  // namespace epsilon::test
