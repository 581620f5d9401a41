// Each optimizer against a two-step update worked out by hand on θ₀ = (1, −2) with
// g₁ = (0.5, −1), g₂ = (−0.25, 2) and η = 0.1 (Keras's default hyper-parameters).
#include <QTest>

#include "core/common/errors.h"
#include "core/optim/optimizer.h"

using namespace epsilon::optim;

class TestOptimizers : public QObject {
  Q_OBJECT

 private:
  // Runs two steps and returns θ after each.
  static std::pair<Vector, Vector> twoSteps(const OptimizerOptions& options) {
    auto optimizer = makeOptimizer(options, 2);
    Vector theta(2), g1(2), g2(2);
    theta << 1.0f, -2.0f;
    g1 << 0.5f, -1.0f;
    g2 << -0.25f, 2.0f;
    optimizer->step(theta, g1, 0.1f);
    const Vector first = theta;
    optimizer->step(theta, g2, 0.1f);
    return {first, theta};
  }
  static void expectNear(const Vector& got, double a, double b, double tol = 2e-6) {
    QVERIFY2(std::abs(got[0] - a) < tol,
             qPrintable(QString("θ[0] = %1, expected %2").arg(got[0], 0, 'g', 9).arg(a)));
    QVERIFY2(std::abs(got[1] - b) < tol,
             qPrintable(QString("θ[1] = %1, expected %2").arg(got[1], 0, 'g', 9).arg(b)));
  }

 private Q_SLOTS:
  void sgd() {
    // θ₁ = θ₀ − 0.1·g₁ = (0.95, −1.9); θ₂ = θ₁ − 0.1·g₂ = (0.975, −2.1).
    const auto [first, second] = twoSteps({.kind = OptimizerKind::Sgd});
    expectNear(first, 0.95, -1.9);
    expectNear(second, 0.975, -2.1);
  }

  void momentum() {
    // v₁ = g₁, θ₁ = (0.95, −1.9); v₂ = 0.9·v₁ + g₂ = (0.2, 1.1), θ₂ = θ₁ − 0.1·v₂ = (0.93, −2.01).
    const auto [first, second] = twoSteps({.kind = OptimizerKind::Momentum, .momentum = 0.9});
    expectNear(first, 0.95, -1.9);
    expectNear(second, 0.93, -2.01);
  }

  void nesterov() {
    // θ₁ = θ₀ − 0.1·(g₁ + 0.9·v₁) = θ₀ − 0.19·g₁ = (0.905, −1.81);
    // θ₂ = θ₁ − 0.1·(g₂ + 0.9·(0.2, 1.1)) = θ₁ − 0.1·(−0.07, 2.99) = (0.912, −2.109).
    const auto [first, second] =
        twoSteps({.kind = OptimizerKind::Momentum, .momentum = 0.9, .nesterov = true});
    expectNear(first, 0.905, -1.81);
    expectNear(second, 0.912, -2.109);
  }

  void adam() {
    // Step 1: m̂ = g₁, v̂ = g₁², so θ₁ = θ₀ − 0.1·g₁/(|g₁| + 1e-7) ≈ (0.90000002, −1.90000001).
    // Step 2: m = (0.02, 0.11), m̂ = m/0.19; v = (0.00031225, 0.004999), v̂ = v/0.001999;
    // θ₂ = θ₁ − 0.1·m̂/(√v̂ + ε) = (0.873366323, −1.936610360).
    const auto [first, second] = twoSteps({.kind = OptimizerKind::Adam});
    expectNear(first, 0.90000002, -1.90000001);
    expectNear(second, 0.873366323, -1.936610360);
  }

  void adagrad() {
    // G₁ = 0.1 + g₁² = (0.35, 1.1), θ₁ = θ₀ − 0.1·g₁/√G₁ = (0.915484589, −1.904653750);
    // G₂ = (0.4125, 5.1), θ₂ = θ₁ − 0.1·g₂/√G₂ = (0.954409530, −1.993215235).
    const auto [first, second] = twoSteps({.kind = OptimizerKind::Adagrad});
    expectNear(first, 0.915484589, -1.904653750);
    expectNear(second, 0.954409530, -1.993215235);
  }

  void rmsprop() {
    // s₁ = 0.1·g₁² = (0.025, 0.1), θ₁ = θ₀ − 0.1·g₁/√s₁ = (0.683772434, −1.683772334);
    // s₂ = 0.9·s₁ + 0.1·g₂² = (0.02875, 0.49), θ₂ = (0.831214303, −1.969486579).
    const auto [first, second] = twoSteps({.kind = OptimizerKind::RmsProp});
    expectNear(first, 0.683772434, -1.683772334);
    expectNear(second, 0.831214303, -1.969486579);
  }

  void stepCountsAndSizes() {
    auto optimizer = makeOptimizer({.kind = OptimizerKind::Adam}, 3);
    Vector theta = Vector::Zero(3), wrong = Vector::Zero(2);
    QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError, optimizer->step(theta, wrong, 0.1f));
    optimizer->step(theta, Vector::Ones(3), 0.1f);
    QCOMPARE(optimizer->stepsTaken(), 1LL);
  }

  void badOptionsNameTheField() {
    try {
      makeOptimizer({.kind = OptimizerKind::Momentum, .momentum = 1.5}, 2);
      QFAIL("momentum 1.5 accepted");
    } catch (const epsilon::ConfigError& e) {
      QVERIFY(QString(e.what()).contains("optimizer.momentum"));
    }
    QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError,
                             makeOptimizer({.kind = OptimizerKind::Adam, .beta2 = -0.1}, 2));
  }

  void namesRoundTrip() {
    for (const auto& name : optimizerNames())
      QCOMPARE(optimizerName(parseOptimizerKind(name)), name);
    try {
      parseOptimizerKind("adamw");
      QFAIL("adamw accepted");
    } catch (const epsilon::ConfigError& e) {
      QVERIFY(QString(e.what()).contains("'adamw'"));
    }
  }
};

QTEST_APPLESS_MAIN(TestOptimizers)
#include "test_optimizers.moc"
