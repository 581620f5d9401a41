#include "ui/charts/run_naming.h"

#include <algorithm>

#include "base/session/run_model.h"
#include "core/train/run_names.h"

namespace epsilon::ui {

QStringList namesForNewRuns(const RunModel& model,
                            const std::vector<train::ExperimentConfig>& configs) {
  // The runs already shown are part of the comparison: a 100-epoch run beside a 30-epoch one
  // is named by its epochs. Their own names stay as they are (the user may have edited them).
  std::vector<train::ExperimentConfig> all;
  std::vector<std::string> existing;
  for (const RunRecord& run : model.runs()) {
    all.push_back(run.config);
    existing.push_back(run.name.toStdString());
  }
  const std::size_t first = all.size();
  all.insert(all.end(), configs.begin(), configs.end());
  const std::vector<std::string> described = train::uniqueRunNames(all, {});
  // Pass the descriptions through uniqueRunNames' counter once more, against the table's names.
  std::vector<std::string> wanted(described.begin() + static_cast<std::ptrdiff_t>(first),
                                  described.end());
  QStringList names;
  std::vector<std::string> taken = existing;
  for (const std::string& name : wanted) {
    std::string candidate = name;
    for (int counter = 2; std::find(taken.begin(), taken.end(), candidate) != taken.end();
         ++counter)
      candidate = name + " #" + std::to_string(counter);
    taken.push_back(candidate);
    names << QString::fromStdString(candidate);
  }
  return names;
}

}  // namespace epsilon::ui
