#include "core/train/config_compare.h"

#include "core/train/experiment_schema.h"

namespace epsilon::train {

// Every field of the schema (experiment_schema.h), in its order; values compare exactly.
std::vector<std::string> differingFields(const ExperimentConfig& a, const ExperimentConfig& b) {
  std::vector<std::string> fields;
  for (const auto& f : experimentFields())
    if (!(f.get(a) == f.get(b))) fields.push_back(f.name);
  return fields;
}

std::string describeDifferences(const ExperimentConfig& a, const ExperimentConfig& b) {
  std::string text;
  for (const std::string& field : differingFields(a, b)) text += (text.empty() ? "" : ", ") + field;
  return text.empty() ? "none" : text;
}

int comparedFieldCount() {
  return static_cast<int>(experimentFields().size());
}

bool operator==(const ExperimentConfig& a, const ExperimentConfig& b) {
  return differingFields(a, b).empty();
}

}  // namespace epsilon::train
