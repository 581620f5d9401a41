#include "core/privacy/dp_event.h"

#include <cmath>
#include <sstream>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::privacy {

namespace {

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

bool sameInner(const std::shared_ptr<const DpEvent>& a, const std::shared_ptr<const DpEvent>& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return *a == *b;
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
  return out.str();
}

}  // namespace

DpEvent::DpEvent() : DpEvent(NoOpEvent{}) {}
DpEvent::DpEvent(NoOpEvent event) : m_value(std::make_shared<const Variant>(event)) {}
DpEvent::DpEvent(NonPrivateEvent event) : m_value(std::make_shared<const Variant>(event)) {}
DpEvent::DpEvent(GaussianEvent event) : m_value(std::make_shared<const Variant>(event)) {}
DpEvent::DpEvent(PoissonSampledEvent event)
    : m_value(std::make_shared<const Variant>(std::move(event))) {}
DpEvent::DpEvent(SelfComposedEvent event)
    : m_value(std::make_shared<const Variant>(std::move(event))) {}
DpEvent::DpEvent(ComposedEvent event)
    : m_value(std::make_shared<const Variant>(std::move(event))) {}
DpEvent::DpEvent(RepeatAndSelectEvent event)
    : m_value(std::make_shared<const Variant>(std::move(event))) {}

bool TuningDistribution::isPoisson() const {
  return std::isinf(shape) && shape > 0.0;
}

bool operator==(const DpEvent& a, const DpEvent& b) {
  if (a.m_value == b.m_value) return true;
  if (a.m_value->index() != b.m_value->index()) return false;
  return std::visit(Overloaded{
                        [](const NoOpEvent&) { return true; },
                        [](const NonPrivateEvent&) { return true; },
                        [&](const GaussianEvent& x) {
                          return x.noiseMultiplier ==
                                 std::get<GaussianEvent>(*b.m_value).noiseMultiplier;
                        },
                        [&](const PoissonSampledEvent& x) {
                          const auto& y = std::get<PoissonSampledEvent>(*b.m_value);
                          return x.sampleRate == y.sampleRate && sameInner(x.inner, y.inner);
                        },
                        [&](const SelfComposedEvent& x) {
                          const auto& y = std::get<SelfComposedEvent>(*b.m_value);
                          return x.count == y.count && sameInner(x.inner, y.inner);
                        },
                        [&](const ComposedEvent& x) {
                          return x.events == std::get<ComposedEvent>(*b.m_value).events;
                        },
                        [&](const RepeatAndSelectEvent& x) {
                          const auto& y = std::get<RepeatAndSelectEvent>(*b.m_value);
                          return x.distribution == y.distribution && sameInner(x.inner, y.inner);
                        },
                    },
                    *a.m_value);
}

DpEvent gaussianEvent(double noiseMultiplier) {
  return GaussianEvent{noiseMultiplier};
}

DpEvent poissonSampledEvent(double sampleRate, const DpEvent& inner) {
  return PoissonSampledEvent{sampleRate, std::make_shared<const DpEvent>(inner)};
}

DpEvent selfComposedEvent(const DpEvent& inner, long long count) {
  return SelfComposedEvent{std::make_shared<const DpEvent>(inner), count};
}

DpEvent composedEvent(std::vector<DpEvent> events) {
  return ComposedEvent{std::move(events)};
}

DpEvent repeatAndSelectEvent(const DpEvent& inner, TuningDistribution distribution) {
  return RepeatAndSelectEvent{std::make_shared<const DpEvent>(inner), distribution};
}

DpEvent dpSgdStepEvent(double sampleRate, double noiseMultiplier) {
  return poissonSampledEvent(sampleRate, gaussianEvent(noiseMultiplier));
}

std::string describe(const DpEvent& event) {
  return std::visit(
      Overloaded{
          [](const NoOpEvent&) { return std::string("NoOp"); },
          [](const NonPrivateEvent&) { return std::string("NonPrivate"); },
          [](const GaussianEvent& x) {
            return "Gaussian(sigma=" + number(x.noiseMultiplier) + ")";
          },
          [](const PoissonSampledEvent& x) {
            return "PoissonSampled(q=" + number(x.sampleRate) + ", " +
                   (x.inner ? describe(*x.inner) : std::string("<missing>")) + ")";
          },
          [](const SelfComposedEvent& x) {
            return "SelfComposed(" + (x.inner ? describe(*x.inner) : std::string("<missing>")) +
                   ", count=" + std::to_string(x.count) + ")";
          },
          [](const ComposedEvent& x) {
            std::string text = "Composed(";
            for (std::size_t k = 0; k < x.events.size(); ++k) {
              if (k > 0) text += ", ";
              text += describe(x.events[k]);
            }
            return text + ")";
          },
          [](const RepeatAndSelectEvent& x) {
            // A whole run's events can be long: at most 80 characters of them.
            return "RepeatAndSelect(" +
                   (x.inner ? clippedText(describe(*x.inner)) : std::string("<missing>")) +
                   ", mean=" + number(x.distribution.mean) +
                   ", shape=" + number(x.distribution.shape) + ")";
          },
      },
      event.value());
}

void validate(const DpEvent& event) {
  std::visit(
      Overloaded{
          [](const NoOpEvent&) {},
          [](const NonPrivateEvent&) {},
          [](const GaussianEvent& x) {
            if (!(x.noiseMultiplier > 0.0) || !std::isfinite(x.noiseMultiplier)) {
              throw PrivacyError(
                  "Gaussian event: noise multiplier sigma must be finite "
                  "and > 0, got " +
                  number(x.noiseMultiplier));
            }
          },
          [](const PoissonSampledEvent& x) {
            if (!(x.sampleRate >= 0.0 && x.sampleRate <= 1.0)) {
              throw PrivacyError("PoissonSampled event: sample rate q must be in [0, 1], got " +
                                 number(x.sampleRate));
            }
            if (!x.inner) throw PrivacyError("PoissonSampled event: inner event is missing");
            validate(*x.inner);
          },
          [](const SelfComposedEvent& x) {
            if (x.count < 0) {
              throw PrivacyError("SelfComposed event: count must be >= 0, got " +
                                 std::to_string(x.count));
            }
            if (!x.inner) throw PrivacyError("SelfComposed event: inner event is missing");
            validate(*x.inner);
          },
          [](const ComposedEvent& x) {
            for (const DpEvent& inner : x.events) validate(inner);
          },
          [](const RepeatAndSelectEvent& x) {
            validateTuning(x.distribution, "RepeatAndSelect event");
            if (!x.inner) throw PrivacyError("RepeatAndSelect event: inner event is missing");
            validate(*x.inner);
          },
      },
      event.value());
}

void validateTuning(const TuningDistribution& distribution, const std::string& field) {
  if (!(distribution.mean >= 1.0) || !std::isfinite(distribution.mean))
    throw PrivacyError(field + ".mean: expected a finite mean number of runs >= 1, got " +
                       number(distribution.mean));
  if (!(distribution.shape >= 0.0))
    throw PrivacyError(field + ".shape: expected a shape >= 0 (or inf for Poisson), got " +
                       number(distribution.shape));
}

}  // namespace epsilon::privacy
