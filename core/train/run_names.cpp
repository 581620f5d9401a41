#include "core/train/run_names.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

#include "core/optim/optimizer.h"
#include "core/privacy/calibration.h"

namespace epsilon::train {

namespace {

using privacy::PrivatizerKind;

// "0.5", "4", "1e-5" (no zero-padded exponent): as short as a legend needs.
std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  std::string text = buffer;
  for (const char* padded : {"e-0", "e+0"}) {
    const auto at = text.find(padded);
    if (at != std::string::npos) text.erase(at + 2, 1);
  }
  const auto plus = text.find("e+");
  if (plus != std::string::npos) text.erase(plus + 1, 1);
  return text;
}

bool clips(const ExperimentConfig& c) {
  return c.privacy.privatizer.kind == PrivatizerKind::Clip ||
         c.privacy.privatizer.kind == PrivatizerKind::Adaptive;
}

// A parameter as a legend shows it; empty where it does not apply to the run.
using Describe = std::function<std::string(const ExperimentConfig&)>;

std::string widths(const ExperimentConfig& c) {
  if (c.model.preset != "mlp") return {};
  std::string text = "width ";
  for (std::size_t i = 0; i < c.model.hiddenWidths.size(); ++i) {
    if (i > 0) text += '-';
    text += std::to_string(c.model.hiddenWidths[i]);
  }
  return text;
}

std::string privatizer(const ExperimentConfig& c) {
  return isPrivate(c) ? privacy::privatizerName(c.privacy.privatizer.kind) : "non-private";
}

std::string join(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& p : parts) {
    if (p.empty()) continue;
    if (!text.empty()) text += " · ";
    text += p;
  }
  return text;
}

// "non-private", "σ 1 · C 4", "tanh c 1 k 1 · σ 1", "adaptive γ 0.5 · σ 1".
std::string privacyPart(const ExperimentConfig& c) {
  const privacy::PrivatizerOptions& p = c.privacy.privatizer;
  const std::string sigma = "σ " + number(c.privacy.noise.initial);
  switch (p.kind) {
    case PrivatizerKind::None:
      return "non-private";
    case PrivatizerKind::Clip:
      return join({sigma, "C " + number(p.clipNorm)});
    case PrivatizerKind::Tanh:
      return join({"tanh c " + number(p.tanhScale) + " k " + number(p.tanhActiveRange), sigma});
    case PrivatizerKind::Adaptive:
      return join({"adaptive γ " + number(p.targetQuantile), sigma});
  }
  return {};
}

std::string noiseSchedule(const ExperimentConfig& c) {
  const privacy::NoiseSchedule& n = c.privacy.noise;
  if (!isPrivate(c) || n.decay == privacy::NoiseDecay::Constant) return {};
  return "σ " + privacy::noiseDecayName(n.decay) + " ρ " + number(n.rate);
}

std::string length(const ExperimentConfig& c) {
  if (c.training.steps > 0) return std::to_string(c.training.steps) + " steps";
  return number(c.training.epochs) + (c.training.epochs == 1.0 ? " epoch" : " epochs");
}

// In the order names list them: what the data and network are, then privacy, then training.
const std::vector<Describe>& parameters() {
  static const std::vector<Describe> list = {
      [](const ExperimentConfig& c) { return c.dataset.name; },
      [](const ExperimentConfig& c) { return std::to_string(c.dataset.options.size) + " points"; },
      [](const ExperimentConfig& c) {
        return "N " + (c.dataset.options.maxTrain > 0 ? std::to_string(c.dataset.options.maxTrain)
                                                      : std::string("all"));
      },
      [](const ExperimentConfig& c) { return c.model.preset; },
      widths,
      privatizer,
      [](const ExperimentConfig& c) {
        return isPrivate(c) ? "σ " + number(c.privacy.noise.initial) : std::string();
      },
      noiseSchedule,
      [](const ExperimentConfig& c) {
        return clips(c) ? "C " + number(c.privacy.privatizer.clipNorm) : std::string();
      },
      [](const ExperimentConfig& c) {
        return clips(c) && c.privacy.privatizer.perLayer ? "per layer" : std::string();
      },
      [](const ExperimentConfig& c) {
        return c.privacy.privatizer.kind == PrivatizerKind::Tanh
                   ? "c " + number(c.privacy.privatizer.tanhScale)
                   : std::string();
      },
      [](const ExperimentConfig& c) {
        return c.privacy.privatizer.kind == PrivatizerKind::Tanh
                   ? "k " + number(c.privacy.privatizer.tanhActiveRange)
                   : std::string();
      },
      [](const ExperimentConfig& c) {
        return c.privacy.privatizer.kind == PrivatizerKind::Adaptive
                   ? "γ " + number(c.privacy.privatizer.targetQuantile)
                   : std::string();
      },
      [](const ExperimentConfig& c) {
        return isPrivate(c) ? "m " + std::to_string(c.privacy.microbatchSize) : std::string();
      },
      [](const ExperimentConfig& c) {
        return isPrivate(c) ? "δ " + number(c.privacy.delta) : std::string();
      },
      [](const ExperimentConfig& c) {
        return isPrivate(c) ? std::string(privacy::accountantKindName(c.privacy.accountant))
                            : std::string();
      },
      [](const ExperimentConfig& c) { return samplingName(c.privacy.sampling); },
      [](const ExperimentConfig& c) { return optim::optimizerName(c.optimizer.options.kind); },
      [](const ExperimentConfig& c) { return "η " + number(c.optimizer.learningRate); },
      [](const ExperimentConfig& c) { return optim::learningRateDecayName(c.optimizer.lrDecay); },
      [](const ExperimentConfig& c) { return "L " + std::to_string(c.training.lotSize); },
      length,
      [](const ExperimentConfig& c) { return "seed " + std::to_string(c.training.seed); },
  };
  return list;
}

// Positions in parameters(): the network, the privatizer kind, and the privatizer's own
// parameters (σ to γ), which its privacy part already shows when the kind differs.
constexpr std::size_t kModelParameter = 3;
constexpr std::size_t kPrivatizerParameter = 5;
constexpr std::size_t kFirstPrivacyParameter = 6;
constexpr std::size_t kLastPrivacyParameter = 15;

// Whether parameter k differs among the configs; the privacy parameters (σ to the
// accountant) only among the private runs, where they mean something.
bool differs(std::size_t k, const std::vector<ExperimentConfig>& configs) {
  const bool privacyOnly = k >= kFirstPrivacyParameter && k <= kLastPrivacyParameter;
  std::set<std::string> values;
  for (const ExperimentConfig& c : configs) {
    if (!privacyOnly || isPrivate(c)) values.insert(parameters()[k](c));
  }
  return values.size() > 1;
}

std::vector<std::size_t> differingParameters(const std::vector<ExperimentConfig>& configs) {
  std::vector<std::size_t> list;
  for (std::size_t k = 0; k < parameters().size(); ++k) {
    if (differs(k, configs)) list.push_back(k);
  }
  if (std::find(list.begin(), list.end(), kPrivatizerParameter) != list.end()) {
    // σ, C, c, k and γ: shown by privacyPart().
    std::erase_if(list,
                  [](std::size_t k) { return k == 6 || k == 8 || k == 10 || k == 11 || k == 12; });
  }
  return list;
}

}  // namespace

std::string baseRunName(const ExperimentConfig& c) {
  return join({c.model.preset, privacyPart(c), optim::optimizerName(c.optimizer.options.kind)});
}

std::vector<std::string> uniqueRunNames(const std::vector<ExperimentConfig>& configs,
                                        const std::vector<std::string>& existing) {
  const std::vector<std::size_t> differing = differingParameters(configs);
  std::set<std::string> taken(existing.begin(), existing.end());
  std::vector<std::string> names;
  for (const ExperimentConfig& c : configs) {
    std::vector<std::string> parts;
    for (std::size_t k : differing) {
      parts.push_back(k == kPrivatizerParameter ? privacyPart(c) : parameters()[k](c));
    }
    std::string name = join(parts);
    if (name.empty()) {
      name = baseRunName(c);  // nothing differs, or nothing that applies to this run
    } else if (std::find(differing.begin(), differing.end(), kModelParameter) == differing.end()) {
      // The network leads every name (Ctrl+R beside a sweep's runs named "σ 1 · C 1" and
      // nothing said which network trained).
      name = c.model.preset + " · " + name;
    }
    std::string unique = name;
    for (int counter = 2; taken.count(unique) > 0; ++counter)
      unique = name + " #" + std::to_string(counter);
    taken.insert(unique);
    names.push_back(unique);
  }
  return names;
}

}  // namespace epsilon::train
