// The check before a run: each impossible combination (lot > N, micro-batch > lot, ...) and
// each warning (δ ≥ 1/N, σ = 0 with clipping, q = 1) names its setting, says the values in
// plain words, and never shows an internal field name to the user.
#include <QTest>
#include <algorithm>

#include "core/train/config_check.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

ExperimentConfig privateConfig() {
  ExperimentConfig c;
  c.dataset.name = "circle";
  c.model.preset = "mlp";
  c.model.hiddenWidths = {16};
  c.training.lotSize = 64;
  c.privacy.noise.initial = 1.0;
  c.privacy.delta = 1e-5;
  return c;
}

const ConfigIssue* find(const std::vector<ConfigIssue>& issues, const std::string& field) {
  const auto it = std::find_if(issues.begin(), issues.end(),
                               [&](const ConfigIssue& i) { return i.field == field; });
  return it == issues.end() ? nullptr : &*it;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// No message may show an experiment-file key ("privacy.microbatch_size", "lot_size").
bool plainWords(const std::vector<ConfigIssue>& issues) {
  return std::none_of(issues.begin(), issues.end(), [](const ConfigIssue& i) {
    return contains(i.message, "training.") || contains(i.message, "privacy.") ||
           contains(i.message, "optimizer.") || contains(i.message, "_");
  });
}

}  // namespace

class TestConfigCheck : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aSoundConfigHasNoIssue() {
    const auto issues = checkConfig(privateConfig(), 800);
    QVERIFY2(issues.empty(), issues.empty() ? "" : issues.front().message.c_str());
    QVERIFY(!hasImpossible(issues));
  }

  void lotLargerThanTheDataIsImpossible() {
    // The issue's own example: lot 1000 on 800 examples.
    ExperimentConfig c = privateConfig();
    c.training.lotSize = 1000;
    const auto issues = checkConfig(c, 800);
    const ConfigIssue* i = find(issues, "training.lot_size");
    QVERIFY(i);
    QCOMPARE(i->severity, IssueSeverity::Impossible);
    QVERIFY2(contains(i->message, "1000") && contains(i->message, "800"), i->message.c_str());
    QVERIFY(hasImpossible(issues));
    QVERIFY(plainWords(issues));
    // Unknown N: nothing to compare with, no issue.
    QVERIFY(checkConfig(c, 0).empty());
  }

  void microBatchLargerThanTheLotIsImpossible() {
    ExperimentConfig c = privateConfig();
    c.privacy.microbatchSize = 100;
    const auto issues = checkConfig(c, 800);
    QCOMPARE(issues.size(), std::size_t(1));  // validate()'s own error is not repeated
    QCOMPARE(issues[0].field, std::string("privacy.microbatch_size"));
    QCOMPARE(issues[0].severity, IssueSeverity::Impossible);
    QVERIFY2(contains(issues[0].message, "100") && contains(issues[0].message, "64"),
             issues[0].message.c_str());
    QVERIFY(plainWords(issues));
    // Without privacy micro-batches are not used, so the same size is no problem.
    c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    QVERIFY(checkConfig(c, 800).empty());
  }

  void deltaNotBelowOneOverNIsAWarning() {
    ExperimentConfig c = privateConfig();
    c.privacy.delta = 1.0 / 800;
    const auto issues = checkConfig(c, 800);
    const ConfigIssue* i = find(issues, "privacy.delta");
    QVERIFY(i);
    QCOMPARE(i->severity, IssueSeverity::Warning);
    QVERIFY2(contains(i->message, "1/800"), i->message.c_str());
    QVERIFY(!hasImpossible(issues));
    QVERIFY(plainWords(issues));
    c.privacy.delta = 0.9 / 800;  // just below 1/N: no warning
    QVERIFY(checkConfig(c, 800).empty());
    c.privacy.delta = 1.0;
    QCOMPARE(find(checkConfig(c, 800), "privacy.delta")->severity, IssueSeverity::Impossible);
  }

  void noNoiseWithClippingIsAWarning() {
    ExperimentConfig c = privateConfig();
    c.privacy.noise.initial = 0.0;
    const auto issues = checkConfig(c, 800);
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("privacy.noise_multiplier"));
    QCOMPARE(issues[0].severity, IssueSeverity::Warning);
    QVERIFY(contains(issues[0].message, "infinite"));
    c.privacy.noise.initial = -1.0;
    QCOMPARE(find(checkConfig(c, 800), "privacy.noise_multiplier")->severity,
             IssueSeverity::Impossible);
  }

  void wholeDataSetLotsAreAWarning() {
    ExperimentConfig c = privateConfig();
    c.training.lotSize = 800;
    const auto issues = checkConfig(c, 800);
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("training.lot_size"));
    QCOMPARE(issues[0].severity, IssueSeverity::Warning);
  }

  void impossibleIssuesComeFirst() {
    ExperimentConfig c = privateConfig();
    c.privacy.delta = 0.01;          // warning
    c.training.lotSize = 900;        // impossible
    c.optimizer.learningRate = 0.0;  // impossible
    const auto issues = checkConfig(c, 800);
    QCOMPARE(issues.size(), std::size_t(3));
    QCOMPARE(issues[0].severity, IssueSeverity::Impossible);
    QCOMPARE(issues[1].severity, IssueSeverity::Impossible);
    QCOMPARE(issues[2].severity, IssueSeverity::Warning);
    QVERIFY(find(issues, "optimizer.learning_rate"));
    QVERIFY(plainWords(issues));
  }

  void otherRefusedValuesNameTheirSetting() {
    // Whatever the config's own validation refuses is reported at its setting too.
    ExperimentConfig c = privateConfig();
    c.privacy.privatizer.kind = privacy::PrivatizerKind::Tanh;
    c.privacy.privatizer.tanhActiveRange = 0.0;
    const auto issues = checkConfig(c, 800);
    QCOMPARE(issues.size(), std::size_t(1));
    QCOMPARE(issues[0].field, std::string("privacy.tanh_k"));
    QCOMPARE(issues[0].severity, IssueSeverity::Impossible);
    QVERIFY(plainWords(issues));
    c = privateConfig();
    c.privacy.privatizer.clipNorm = 0.0;
    QCOMPARE(checkConfig(c, 800).size(), std::size_t(1));
    QCOMPARE(checkConfig(c, 800)[0].field, std::string("privacy.clip_norm"));
  }
};

QTEST_APPLESS_MAIN(TestConfigCheck)
#include "test_config_check.moc"
