// Secure noise (PrivacyConfig::secureNoise): the noise comes from the OS CSPRNG, so the same
// seed gives different noise and different runs, while the noise keeps the right law
// (mean 0, standard deviation σ·S, a normal shape by a Kolmogorov-Smirnov test); the default
// seeded mode stays bit-reproducible.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/data/registry.h"
#include "core/privacy/noise.h"
#include "core/privacy/secure_random.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

std::vector<float> secureNoise(std::size_t count, double stddev) {
  std::vector<float> values(count, 0.0f);
  privacy::addSecureGaussianNoise(values, stddev);
  return values;
}

double normalCdf(double x) {
  return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

// Kolmogorov-Smirnov statistic D_n = sup |F_n(x) − Φ(x/σ)| (Kolmogorov 1933).
double ksStatistic(std::vector<float> values, double stddev) {
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  double d = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double f = normalCdf(values[i] / stddev);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

ExperimentConfig tinyRun(bool secure) {
  ExperimentConfig c;
  c.dataset.name = "circle";
  c.dataset.options.size = 400;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {8};
  c.training.lotSize = 32;
  c.training.steps = 5;
  c.training.evalEveryEpoch = false;
  c.training.evalEverySteps = 5;
  c.training.seed = 3;
  c.privacy.noise.initial = 1.0;
  c.privacy.secureNoise = secure;
  return c;
}

std::vector<float> finalParameters(const ExperimentConfig& config) {
  const RunResult result = Trainer(config).run();
  if (result.status != RunStatus::Done || !result.model) return {};
  const auto& p = result.model->parameters();
  return {p.data(), p.data() + p.size()};
}

}  // namespace

class TestSecureNoise : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void osBytesDifferEveryCall() {
    // Two 64-bit draws agree with probability 2^-64.
    QVERIFY(privacy::osRandom64() != privacy::osRandom64());
  }

  void sameCallGivesDifferentNoise() {
    const auto a = secureNoise(10'000, 1.0);
    const auto b = secureNoise(10'000, 1.0);
    long equal = 0;
    for (std::size_t i = 0; i < a.size(); ++i) equal += a[i] == b[i] ? 1 : 0;
    QVERIFY2(equal < 10, qPrintable(QString("%1 equal entries").arg(equal)));
  }

  void hasTheRightStandardDeviation() {
    // n = 400,000 draws of N(0, 2.5²). The sample mean has sd σ/√n = 0.00395 and the sample
    // sd has sd ≈ σ/√(2n) = 0.0028: bounds of 6 of those fail by chance with p < 1e-8.
    constexpr double kSigma = 2.5;
    const auto v = secureNoise(400'000, kSigma);
    const double n = static_cast<double>(v.size());
    double sum = 0, sq = 0;
    for (float x : v) sum += x;
    const double mean = sum / n;
    for (float x : v) sq += (x - mean) * (x - mean);
    const double sd = std::sqrt(sq / (n - 1));
    QVERIFY2(std::abs(mean) < 6 * kSigma / std::sqrt(n), qPrintable(QString("mean %1").arg(mean)));
    QVERIFY2(std::abs(sd - kSigma) < 6 * kSigma / std::sqrt(2 * n),
             qPrintable(QString("sd %1").arg(sd)));
  }

  void isNormalByKolmogorovSmirnov() {
    // P(√n·D_n > 2.0) ≈ 2·e^{−8} ≈ 6.7e-4 for the true law (Kolmogorov's limit law); a
    // uniform or a wrongly scaled sampler gives √n·D_n in the tens.
    constexpr double kSigma = 0.7;
    const auto v = secureNoise(100'000, kSigma);
    const double scaled = std::sqrt(static_cast<double>(v.size())) * ksStatistic(v, kSigma);
    QVERIFY2(scaled < 2.0, qPrintable(QString("sqrt(n) D_n = %1").arg(scaled)));
    // The test can tell: the same draws judged against σ·1.05 fail it.
    const double wrong = std::sqrt(static_cast<double>(v.size())) * ksStatistic(v, kSigma * 1.05);
    QVERIFY2(wrong > 2.0,
             qPrintable(QString("sqrt(n) D_n against the wrong sigma = %1").arg(wrong)));
  }

  void zeroStddevAddsNothing() {
    const auto v = secureNoise(100, 0.0);
    QVERIFY(std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f; }));
  }

  void sameSeedDifferentRunsWhenSecure() {
    const auto a = finalParameters(tinyRun(true));
    const auto b = finalParameters(tinyRun(true));
    QVERIFY(!a.empty());
    QCOMPARE(a.size(), b.size());
    QVERIFY(a != b);
  }

  void defaultModeStaysReproducible() {
    const auto a = finalParameters(tinyRun(false));
    const auto b = finalParameters(tinyRun(false));
    QVERIFY(!a.empty());
    QVERIFY(a == b);
    QVERIFY(!tinyRun(false).privacy.secureNoise);
    QVERIFY(!ExperimentConfig{}.privacy.secureNoise);
  }
};

QTEST_APPLESS_MAIN(TestSecureNoise)
#include "test_secure_noise.moc"
