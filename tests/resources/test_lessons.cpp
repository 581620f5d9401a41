// The lessons (resources/lessons/*.json): every file parses with exactly the lesson keys, the
// .qrc lists them all, every set-up expands to runs that pass the pre-run check, and each
// lesson's answer is what its runs show (trained here: 2-D sets, well under a second a run).
// Until the io library reads lessons, this reads the few experiment keys lessons use itself.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QRegularExpression>
#include <QTest>
#include <cmath>
#include <limits>
#include <map>

#include "core/data/registry.h"
#include "core/data/synthetic.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/config_check.h"
#include "core/train/run_planning.h"
#include "core/train/sweep.h"
#include "core/train/teaching_defaults.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

const QString kLessons = QStringLiteral(EPSILON_SOURCE_DIR "/resources/lessons");

QJsonObject readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
  if (error.error != QJsonParseError::NoError)
    qWarning("%s: %s", qPrintable(path), qPrintable(error.errorString()));
  return doc.object();
}

QStringList lessonFiles() {
  return QDir(kLessons).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
}

QString unknownKey(const QJsonObject& o, const QStringList& allowed) {
  for (const QString& key : o.keys()) {
    if (!allowed.contains(key)) return key;
  }
  return {};
}

QString text(const QJsonValue& v) {
  return v.isString() ? v.toString() : QString::number(v.toDouble(), 'g', 10);
}

// The partial experiment over the data set's teaching defaults: the keys lessons may use.
ExperimentConfig lessonBase(const QJsonObject& experiment) {
  const QJsonObject dataset = experiment[QStringLiteral("dataset")].toObject();
  ExperimentConfig c = defaultConfigFor(dataset[QStringLiteral("name")].toString().toStdString());
  c.training.paceSeconds = 0.0;  // the same runs, unpaced
  if (dataset.contains(QStringLiteral("size")))
    c.dataset.options.size = dataset[QStringLiteral("size")].toInt();
  if (dataset.contains(QStringLiteral("noise")))
    c.dataset.options.noise = dataset[QStringLiteral("noise")].toDouble();
  if (dataset.contains(QStringLiteral("minority_class")))
    c.dataset.options.minorityClass = dataset[QStringLiteral("minority_class")].toInt();
  if (dataset.contains(QStringLiteral("minority_keep")))
    c.dataset.options.minorityKeep = dataset[QStringLiteral("minority_keep")].toDouble();
  static const std::map<QString, std::string> sweepNames{
      {QStringLiteral("privatizer"), "privatizer"},
      {QStringLiteral("noise_multiplier"), "noise_multiplier"},
      {QStringLiteral("clip_norm"), "clip_norm"},
      {QStringLiteral("lot_size"), "lot_size"},
      {QStringLiteral("epochs"), "epochs"},
      {QStringLiteral("learning_rate"), "learning_rate"},
      {QStringLiteral("name"), "optimizer"},
      {QStringLiteral("preset"), "model"}};
  for (const QString& section : {QStringLiteral("model"), QStringLiteral("privacy"),
                                 QStringLiteral("optimizer"), QStringLiteral("training")}) {
    const QJsonObject part = experiment[section].toObject();
    for (auto it = part.begin(); it != part.end(); ++it) {
      if (it.key() == QStringLiteral("delta")) {
        c.privacy.delta = it.value().toDouble();
      } else if (sweepNames.count(it.key()) == 0) {
        QTest::qFail(qPrintable(section + "." + it.key() + " is not a key lessons may use"),
                     __FILE__, __LINE__);
      } else {
        applySweepValue(c, sweepNames.at(it.key()), text(it.value()).toStdString());
      }
    }
  }
  return c;
}

struct Outcome {
  QString value;
  double accuracy = 0.0;
  double epsilon = 0.0;
  std::vector<double> classAccuracy;
  ExperimentConfig config;
};

}  // namespace

class TestLessons : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyLessonIsWellFormed() {
    const QStringList files = lessonFiles();
    QVERIFY(files.size() >= 5);
    const QStringList charts{"accuracy-epoch", "epsilon-epoch",  "accuracy-epsilon",
                             "loss",           "gradient-norms", "decision-boundary",
                             "privacy-budget", "sweep-map",      "per-class"};
    for (const QString& name : files) {
      const QJsonObject o = readJson(kLessons + "/" + name);
      QVERIFY2(!o.isEmpty(), qPrintable(name));
      const QString extra = unknownKey(o, {"format", "version", "name", "title", "minutes", "text",
                                           "setup", "question", "answer", "look_at"});
      QVERIFY2(extra.isEmpty(), qPrintable(name + ": unknown key " + extra));
      QCOMPARE(o["format"].toString(), QStringLiteral("epsilonlab-lesson"));
      QCOMPARE(o["version"].toInt(), 1);
      QVERIFY(QRegularExpression("^[a-z0-9-]+$").match(o["name"].toString()).hasMatch());
      QVERIFY2(name.endsWith(o["name"].toString() + ".json"), qPrintable(name));
      for (const char* key : {"title", "text", "question", "answer"}) {
        QVERIFY2(o[key].toString().size() > 10, qPrintable(name + ": " + key));
      }
      QVERIFY(o["minutes"].toInt() >= 5 && o["minutes"].toInt() <= 20);
      const QJsonObject setup = o["setup"].toObject();
      QVERIFY2(unknownKey(setup, {"kind", "experiment", "sweep"}).isEmpty(), qPrintable(name));
      QCOMPARE(setup["kind"].toString(), QStringLiteral("train"));
      QVERIFY(!o["look_at"].toArray().isEmpty());
      for (const QJsonValue& chart : o["look_at"].toArray())
        QVERIFY2(charts.contains(chart.toString()), qPrintable(name));
    }
  }

  void theResourceFileListsEveryLesson() {
    QFile qrc(QStringLiteral(EPSILON_SOURCE_DIR "/resources/lessons.qrc"));
    QVERIFY(qrc.open(QIODevice::ReadOnly));
    const QString content = QString::fromUtf8(qrc.readAll());
    QStringList listed;
    for (const auto& m : QRegularExpression("<file>lessons/([^<]+)</file>").globalMatch(content))
      listed << m.captured(1);
    QCOMPARE(listed, lessonFiles());
  }

  void everySetUpRunsAndShowsItsAnswer_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : lessonFiles()) QTest::newRow(qPrintable(f)) << f;
  }
  void everySetUpRunsAndShowsItsAnswer() {
    QFETCH(QString, file);
    const QJsonObject lesson = readJson(kLessons + "/" + file);
    const QJsonObject setup = lesson["setup"].toObject();
    const ExperimentConfig base = lessonBase(setup["experiment"].toObject());
    const auto kind = data::syntheticKindFromName(base.dataset.name);
    QVERIFY2(kind.has_value(), "lessons use the 2-D sets, which train in class time");
    std::vector<SweepAxis> axes;
    for (const QJsonValue& a : setup["sweep"].toArray()) {
      SweepAxis axis{a["parameter"].toString().toStdString(), {}};
      for (const QJsonValue& v : a["values"].toArray())
        axis.values.push_back(text(v).toStdString());
      axes.push_back(axis);
    }
    QCOMPARE(axes.size(), std::size_t(1));
    std::vector<Outcome> outcomes;
    for (const SweepPoint& p : expandSweep(base, axes)) {
      // The training set as loaded: a thinned class (dataset.minority_class) changes N.
      const long long n =
          data::loadDataset(p.config.dataset.name, p.config.dataset.options).train.size();
      const auto issues = checkConfig(p.config, n);
      QVERIFY2(issues.empty(), issues.empty() ? "" : issues.front().message.c_str());
      const RunResult r = Trainer(p.config).run();
      QCOMPARE(runStatusName(r.status), std::string("done"));
      outcomes.push_back({QString::fromStdString(p.values.front().second),
                          r.history.back().testAccuracy, r.history.back().privacy.epsilon,
                          r.history.back().classAccuracy, p.config});
      qInfo("%s %s: accuracy %.3f, epsilon %.2f", qPrintable(file),
            qPrintable(outcomes.back().value), outcomes.back().accuracy, outcomes.back().epsilon);
    }
    checkAnswer(lesson["name"].toString(), outcomes);
  }

 private:
  void checkTuningAnswer(const std::vector<Outcome>& o);
  // What each lesson's answer says, asserted on its runs (in sweep order).
  void checkAnswer(const QString& name, const std::vector<Outcome>& o) {
    const auto epsilonFalls = [&] {
      for (std::size_t i = 1; i < o.size(); ++i) QVERIFY(o[i].epsilon < o[i - 1].epsilon);
    };
    if (name == "what-clipping-does") {  // C 0.01, 0.1, 1, 10: the middle one wins, ε equal
      for (const Outcome& x : o) QCOMPARE(x.epsilon, o[0].epsilon);
      for (std::size_t i : {0u, 2u, 3u}) QVERIFY(o[1].accuracy > o[i].accuracy);
      QVERIFY(o[3].accuracy < 0.9);
    } else if (name == "noise-and-epsilon") {  // σ 0.5 .. 8
      epsilonFalls();
      QVERIFY(o.front().epsilon > 20 && o.back().epsilon < 0.5);
      QVERIFY(o.front().accuracy - o.back().accuracy >= 0.1);
    } else if (name == "amplification-by-sampling") {  // N 500, 1000, 4000
      epsilonFalls();
      for (const Outcome& x : o) QVERIFY(x.accuracy >= 0.95);
    } else if (name == "composition-over-epochs") {  // 5, 10, 20, 40 epochs
      for (std::size_t i = 1; i < o.size(); ++i) {
        QVERIFY(o[i].epsilon > o[i - 1].epsilon);
        QVERIFY(o[i].epsilon < 1.5 * o[i - 1].epsilon);  // doubling the epochs: far less than 2×
      }
      QVERIFY(o.front().accuracy >= 0.97);
    } else if (name == "what-epsilon-means") {  // σ 0.7, 1.5, 4, 8
      epsilonFalls();
      // Largest advantage under (ε, δ)-DP, (e^ε − 1 + 2δ)/(e^ε + 1) (Kairouz et al. 2015).
      const auto advantage = [](double e) { return (std::exp(e) - 1 + 2e-5) / (std::exp(e) + 1); };
      QVERIFY(advantage(o[0].epsilon) > 0.99 && advantage(o[1].epsilon) > 0.9);
      QVERIFY(advantage(o[2].epsilon) < 0.5 && advantage(o[3].epsilon) < 0.25);
      QVERIFY(o[2].accuracy >= 0.9 && o[3].accuracy >= 0.8);
    } else if (name == "tuning-costs-privacy") {  // learning rate 0.03 .. 1 at σ 2
      checkTuningAnswer(o);
    } else if (name == "who-pays-for-privacy") {  // no privacy, then DP-SGD; class 1 at 10%
      QCOMPARE(o[0].classAccuracy.size(), std::size_t(2));
      const double drop0 = o[0].classAccuracy[0] - o[1].classAccuracy[0];
      const double drop1 = o[0].classAccuracy[1] - o[1].classAccuracy[1];
      QVERIFY(o[0].classAccuracy[0] >= 0.95 && o[0].classAccuracy[1] >= 0.9);
      QVERIFY2(drop1 >= 0.3 && drop0 <= 0.05, qPrintable(QString("%1 %2").arg(drop0).arg(drop1)));
      QVERIFY(o[1].epsilon > 1.5 && o[1].epsilon < 2.7);
    } else {
      QFAIL(qPrintable("no answer check for lesson " + name));
    }
  }
};

// The tuning lesson's numbers, from the one privacy statement: one run ≈ 2.2, four composed
// ≈ 4.6, the best of a Poisson number of runs of mean 4 ≈ 3.3, and the trained runs' ε equal.
void TestLessons::checkTuningAnswer(const std::vector<Outcome>& o) {
  for (const Outcome& x : o) QCOMPARE(x.epsilon, o[0].epsilon);
  privacy::PrivacyRunDescription run = privacyDescription(
      o[0].config, planInput(o[0].config, data::loadDataset(o[0].config.dataset.name,
                                                            o[0].config.dataset.options)));
  run.tuning = privacy::TuningDistribution{4.0, std::numeric_limits<double>::infinity()};
  const privacy::PrivacyStatement tuned = privacy::privacyStatement(run);
  QVERIFY(std::abs(tuned.tuning->singleRunEpsilon - o[0].epsilon) < 1e-9);
  QVERIFY(std::abs(tuned.tuning->singleRunEpsilon - 2.2) < 0.1);
  QVERIFY(std::abs(tuned.epsilon - 3.3) < 0.1);
  QCOMPARE(tuned.tuning->fixedRuns, 4LL);
  QVERIFY(std::abs(tuned.tuning->fixedRunsEpsilon - 4.6) < 0.1);
  for (const Outcome& x : o) QVERIFY(x.accuracy >= 0.9);
}

QTEST_APPLESS_MAIN(TestLessons)
#include "test_lessons.moc"
