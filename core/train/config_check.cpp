#include "core/train/config_check.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/train/experiment_schema.h"

namespace epsilon::train {

namespace {

using privacy::PrivatizerKind;

class Issues {
 public:
  void impossible(std::string field, std::string message) {
    m_list.push_back({IssueSeverity::Impossible, std::move(field), std::move(message)});
  }
  void warning(std::string field, std::string message) {
    m_list.push_back({IssueSeverity::Warning, std::move(field), std::move(message)});
  }
  bool has(const std::string& field) const {
    return std::any_of(m_list.begin(), m_list.end(),
                       [&](const ConfigIssue& i) { return i.field == field; });
  }
  std::vector<ConfigIssue> take() {
    std::stable_sort(m_list.begin(), m_list.end(), [](const ConfigIssue& a, const ConfigIssue& b) {
      return a.severity < b.severity;
    });
    return std::move(m_list);
  }

 private:
  std::vector<ConfigIssue> m_list;
};

std::string count(long long n) {
  return std::to_string(n);
}

long long lowest(const std::string& field) {
  return static_cast<long long>(fieldNamed(field)->low);
}

// Lot, micro-batch and length: the combinations a student most often gets wrong.
void checkSizes(const ExperimentConfig& c, long long n, Issues& out) {
  const int lot = c.training.lotSize;
  const bool isPrivate = c.privacy.privatizer.kind != PrivatizerKind::None;
  // The lowest lot and micro-batch are the schema's (experiment_schema.h), checked here in
  // plain words for the panel.
  const long long fewestLot = lowest("training.lot_size");
  const long long fewestMicrobatch = lowest("privacy.microbatch_size");
  if (lot < fewestLot) {
    out.impossible("training.lot_size", "The lot size must be at least " + count(fewestLot) +
                                            " (it is " + count(lot) + ").");
  } else if (n > 0 && lot > n) {
    out.impossible("training.lot_size", "The lot size (" + count(lot) + ") is larger than the " +
                                            count(n) + " training examples. Choose at most " +
                                            count(n) + ".");
  } else if (n > 0 && lot == n && isPrivate) {
    out.warning("training.lot_size",
                "Every step uses all " + count(n) +
                    " training examples, so privacy gets no help from random sampling. "
                    "A smaller lot gives a smaller ε for the same noise.");
  }
  if (isPrivate && c.privacy.microbatchSize < fewestMicrobatch) {
    out.impossible("privacy.microbatch_size", "The micro-batch size must be at least " +
                                                  count(fewestMicrobatch) + " (it is " +
                                                  count(c.privacy.microbatchSize) + ").");
  } else if (isPrivate && lot >= 1 && c.privacy.microbatchSize > lot) {
    out.impossible("privacy.microbatch_size",
                   "Micro-batches of " + count(c.privacy.microbatchSize) +
                       " examples do not fit in a lot of " + count(lot) +
                       ". Choose a micro-batch size of at most " + count(lot) + ".");
  }
  if (c.training.steps == 0 && !(c.training.epochs > 0.0)) {
    out.impossible("training.epochs", "The run needs more than 0 epochs (it is " +
                                          shortNumber(c.training.epochs) + ").");
  }
}

// δ and σ: runs that start but whose ε says less than a user thinks (Dwork & Roth 2014, §2.3:
// δ must be well below 1/N, or a mechanism may publish a few examples outright).
void checkPrivacy(const ExperimentConfig& c, long long n, Issues& out) {
  const PrivacyConfig& p = c.privacy;
  if (p.privatizer.kind == PrivatizerKind::None) return;
  if (!(p.delta > 0.0 && p.delta < 1.0)) {
    out.impossible("privacy.delta",
                   "δ must be between 0 and 1 (it is " + shortNumber(p.delta) + ").");
  } else if (n > 0 && p.delta >= 1.0 / static_cast<double>(n)) {
    out.warning("privacy.delta",
                "δ = " + shortNumber(p.delta) + " is not small next to 1/" + count(n) +
                    " (one over the number of training examples): the guarantee would allow "
                    "a few examples to leak completely. Choose δ well below 1/" +
                    count(n) + ".");
  }
  const bool clips =
      p.privatizer.kind == PrivatizerKind::Clip || p.privatizer.kind == PrivatizerKind::Adaptive;
  if (clips && !(p.privatizer.clipNorm > 0.0 && std::isfinite(p.privatizer.clipNorm))) {
    out.impossible("privacy.clip_norm", "The clipping bound C must be a number above 0 (it is " +
                                            shortNumber(p.privatizer.clipNorm) + ").");
  }
  if (!(p.noise.initial >= 0.0 && std::isfinite(p.noise.initial))) {
    out.impossible("privacy.noise_multiplier", "The noise multiplier σ must be 0 or more (it is " +
                                                   shortNumber(p.noise.initial) + ").");
  } else if (p.noise.initial == 0.0) {
    out.warning(
        "privacy.noise_multiplier",
        "With no noise, clipping alone protects nothing: ε is infinite. Add noise, or choose "
        "non-private training to compare against.");
  }
}

void checkOptimizer(const ExperimentConfig& c, Issues& out) {
  const double lr = c.optimizer.learningRate;
  if (!(lr > 0.0 && std::isfinite(lr))) {
    out.impossible("optimizer.learning_rate",
                   "The learning rate must be a number above 0 (it is " + shortNumber(lr) + ").");
  }
}

// Anything else the config's own validation refuses, in its words after the setting's name.
void checkRemaining(const ExperimentConfig& c, Issues& out) {
  try {
    c.validate();
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    const auto colon = what.find(": ");
    const std::string field = colon == std::string::npos ? "" : what.substr(0, colon);
    if (out.has(field)) return;
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    if (!detail.empty())
      detail[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(detail[0])));
    out.impossible(field, "This value cannot be used. " + detail + ".");
  }
}

}  // namespace

std::vector<ConfigIssue> checkConfig(const ExperimentConfig& config, long long trainSize) {
  Issues issues;
  checkSizes(config, trainSize, issues);
  checkPrivacy(config, trainSize, issues);
  checkOptimizer(config, issues);
  checkRemaining(config, issues);
  return issues.take();
}

bool hasImpossible(const std::vector<ConfigIssue>& issues) {
  return std::any_of(issues.begin(), issues.end(),
                     [](const ConfigIssue& i) { return i.severity == IssueSeverity::Impossible; });
}

}  // namespace epsilon::train
