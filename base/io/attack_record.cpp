#include "base/io/attack_record.h"

#include <QJsonArray>

#include "base/io/attack_figure.h"
#include "base/io/number_format.h"
#include "base/io/run_conversion.h"

namespace epsilon::ui {

namespace {

QJsonArray pointsToJson(const std::vector<QPointF>& points) {
  QJsonArray array;
  for (const QPointF& p : points) array.append(QJsonArray{p.x(), p.y()});
  return array;
}

// Rates: pairs of numbers in [0, 1].
std::vector<QPointF> readRates(JsonReader& r, const QString& key) {
  std::vector<QPointF> points;
  const QJsonArray array = r.array(key);
  for (qsizetype i = 0; i < array.size(); ++i) {
    const QJsonArray pair = array.at(i).toArray();
    const auto inRange = [](const QJsonValue& v) {
      return v.isDouble() && v.toDouble() >= 0.0 && v.toDouble() <= 1.0;
    };
    if (!array.at(i).isArray() || pair.size() != 2 || !inRange(pair.at(0)) || !inRange(pair.at(1)))
      r.expected(QStringLiteral("%1[%2]").arg(key).arg(i), QStringLiteral("[fpr, tpr] in [0, 1]"),
                 array.at(i));
    points.emplace_back(pair.at(0).toDouble(), pair.at(1).toDouble());
  }
  return points;
}

double readRate(JsonReader& r, const QString& key) {
  const double value = r.number(key, true);
  if (value < 0.0 || value > 1.0)
    r.fail(key, QStringLiteral("expected a value in [0, 1], got %1").arg(value));
  return value;
}

constexpr double kMaxCount = 1e12;

}  // namespace

AttackRecord attackRecordOf(const audit::RunAttack& a) {
  AttackRecord record;
  record.auc = a.attack.auc;
  record.tprAt1Percent = a.attack.tprAtFpr1Percent;
  record.tprAt01Percent = a.attack.tprAtFpr01Percent;
  record.advantage = a.attack.advantage;
  record.members = a.attack.members;
  record.nonMembers = a.attack.nonMembers;
  record.roc = curvePoints(a.drawnRoc.fpr, a.drawnRoc.tpr);
  record.bound = curvePoints(a.bound.fpr, a.bound.tpr);
  return record;
}

CanaryAuditRecord canaryAuditRecordOf(const audit::AuditResult& result,
                                      const audit::AuditOptions& options) {
  CanaryAuditRecord record;
  record.epsilonLowerBound = result.bound.epsilonLowerBound;
  record.confidence = result.bound.confidence;
  record.canaries = result.bound.canaries;
  record.canaryKind = QString::fromStdString(audit::canaryKindName(options.kind));
  record.included = result.canariesIncluded;
  record.guesses = result.bound.guesses;
  record.correct = result.bound.correct;
  record.k = result.bound.k;
  record.canaryAuc = result.canaryAuc;
  record.epsilonUpperBound = result.upper.epsilon;
  record.delta = result.upper.delta;
  record.privacyLabel = privacyLabelOf(result.upper);
  if (const QString note = auditedEpsilonNote(result); !note.isEmpty())
    record.privacyLabel += QStringLiteral(" · ") + note;
  record.testAccuracy = result.testAccuracy;
  record.seconds = result.run.elapsedSeconds + result.attackSeconds;
  return record;
}

QString auditedEpsilonNote(const audit::AuditResult& r) {
  const long long added = r.auditedTrainSize - r.baseTrainSize;
  if (added == 0 && r.upper.epsilon == r.runOwn.epsilon) return {};
  return QStringLiteral(
             "its training set grew by %1 canaries (%2 + %1 = %3 examples, so q = L/%3): ε %4 "
             "for the audited run, %5 for the run alone")
      .arg(added)
      .arg(r.baseTrainSize)
      .arg(r.auditedTrainSize)
      .arg(formatEpsilon(r.upper.epsilon), formatEpsilon(r.runOwn.epsilon));
}

QJsonObject attackToJson(const AttackRecord& a) {
  return QJsonObject{
      {"auc", a.auc},
      {"tpr_at_fpr", QJsonObject{{"0.01", a.tprAt1Percent}, {"0.001", a.tprAt01Percent}}},
      {"advantage", a.advantage},
      {"members", a.members},
      {"non_members", a.nonMembers},
      {"roc", pointsToJson(a.roc)},
      {"bound", pointsToJson(a.bound)}};
}

QJsonObject canaryAuditToJson(const CanaryAuditRecord& c) {
  return QJsonObject{{"epsilon_lower_bound", c.epsilonLowerBound},
                     {"confidence", c.confidence},
                     {"canaries", c.canaries},
                     {"canary_kind", c.canaryKind},
                     {"canaries_included", c.included},
                     {"guesses", c.guesses},
                     {"correct", c.correct},
                     {"k", c.k},
                     {"canary_auc", c.canaryAuc},
                     {"epsilon_upper_bound", numberToJson(c.epsilonUpperBound)},
                     {"delta", c.delta},
                     {"privacy_label", c.privacyLabel},
                     {"test_accuracy", numberToJson(c.testAccuracy)},
                     {"seconds", c.seconds},
                     {"run_trained_with_canaries", c.runTrainedWithCanaries}};
}

std::optional<AttackRecord> attackFromJson(JsonReader& run, const QString& key) {
  if (!run.has(key)) return std::nullopt;
  JsonReader r = run.child(key);
  AttackRecord a;
  a.auc = readRate(r, QStringLiteral("auc"));
  JsonReader tpr = r.child(QStringLiteral("tpr_at_fpr"), true);
  a.tprAt1Percent = readRate(tpr, QStringLiteral("0.01"));
  a.tprAt01Percent = readRate(tpr, QStringLiteral("0.001"));
  tpr.finish();
  a.advantage = readRate(r, QStringLiteral("advantage"));
  a.members = r.integer(QStringLiteral("members"), 0, kMaxCount, 0, true);
  a.nonMembers = r.integer(QStringLiteral("non_members"), 0, kMaxCount, 0, true);
  a.roc = readRates(r, QStringLiteral("roc"));
  a.bound = readRates(r, QStringLiteral("bound"));
  r.finish();
  return a;
}

std::optional<CanaryAuditRecord> canaryAuditFromJson(JsonReader& run, const QString& key) {
  if (!run.has(key)) return std::nullopt;
  JsonReader r = run.child(key);
  CanaryAuditRecord c;
  c.epsilonLowerBound = r.number(QStringLiteral("epsilon_lower_bound"), true);
  if (c.epsilonLowerBound < 0)
    r.fail(QStringLiteral("epsilon_lower_bound"), QStringLiteral("expected a value >= 0"));
  c.confidence = readRate(r, QStringLiteral("confidence"));
  c.canaries = r.integer(QStringLiteral("canaries"), 2, kMaxCount, 0, true);
  c.canaryKind = r.string(QStringLiteral("canary_kind"), true);
  // Throws ConfigError "<path>.canary_kind: expected mislabel or ood, got '…'".
  audit::parseCanaryKind(c.canaryKind.toStdString(),
                         r.path(QStringLiteral("canary_kind")).toStdString());
  c.included =
      r.integer(QStringLiteral("canaries_included"), 0, static_cast<double>(c.canaries), 0, true);
  c.guesses = r.integer(QStringLiteral("guesses"), 0, static_cast<double>(c.canaries), 0, true);
  c.correct = r.integer(QStringLiteral("correct"), 0, static_cast<double>(c.guesses), 0, true);
  c.k = r.integer(QStringLiteral("k"), 0, static_cast<double>(c.canaries), 0, true);
  c.canaryAuc = readRate(r, QStringLiteral("canary_auc"));
  c.epsilonUpperBound = r.numberOrNull(QStringLiteral("epsilon_upper_bound"), kNaN);
  c.delta = readRate(r, QStringLiteral("delta"));
  c.privacyLabel = r.string(QStringLiteral("privacy_label"), false, {}, true);
  c.testAccuracy = r.numberOrNull(QStringLiteral("test_accuracy"), kNaN);
  c.seconds = r.number(QStringLiteral("seconds"), false, 0.0);
  c.runTrainedWithCanaries = r.boolean(QStringLiteral("run_trained_with_canaries"), false);
  r.finish();
  return c;
}

QJsonObject liraToJson(const LiraRecord& l) {
  return QJsonObject{{"attack", attackToJson(l.attack)},
                     {"shadows", l.shadows},
                     {"reused_shadows", l.reusedShadows},
                     {"test", l.test},
                     {"variance", l.globalVariance ? "global" : "per-example"},
                     {"seconds", l.seconds}};
}

std::optional<LiraRecord> liraFromJson(JsonReader& run, const QString& key) {
  if (!run.has(key)) return std::nullopt;
  JsonReader r = run.child(key);
  LiraRecord l;
  const auto attack = attackFromJson(r, QStringLiteral("attack"));
  if (!attack) r.fail(QStringLiteral("attack"), QStringLiteral("expected the attack's numbers"));
  l.attack = *attack;
  l.shadows =
      static_cast<int>(r.integer(QStringLiteral("shadows"), 2, audit::kMaxShadows, 0, true));
  l.reusedShadows =
      static_cast<int>(r.integer(QStringLiteral("reused_shadows"), 0, l.shadows, 0, true));
  l.test = r.string(QStringLiteral("test"), true);
  // Throws ConfigError "<path>.test: expected online or offline, got '…'".
  audit::parseLiraTest(l.test.toStdString(), r.path(QStringLiteral("test")).toStdString());
  const QString variance = r.string(QStringLiteral("variance"), true);
  if (variance != QLatin1String("global") && variance != QLatin1String("per-example"))
    r.expected(QStringLiteral("variance"), QStringLiteral("global or per-example"), variance);
  l.globalVariance = variance == QLatin1String("global");
  l.seconds = r.number(QStringLiteral("seconds"), false, 0.0);
  r.finish();
  return l;
}

}  // namespace epsilon::ui
