#include "base/io/lira_shadow_file.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <cmath>

#include "base/io/experiment_json.h"
#include "base/io/json_reader.h"
#include "base/io/session_file.h"
#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/train/feature_cache.h"

namespace epsilon::ui {

namespace {

const QString kFormat = QStringLiteral("epsilonlab-lira-shadows");
constexpr qint64 kMaxShadowBytes = 512LL << 20;  // 256 shadows × 100 000 candidates

}  // namespace

QString liraShadowFileName(const train::ExperimentConfig& config, const data::Dataset& training,
                           long long memberRows) {
  QCryptographicHash hash(QCryptographicHash::Sha256);
  hash.addData(QJsonDocument(experimentToJson(config)).toJson(QJsonDocument::Compact));
  hash.addData(QByteArray::number(static_cast<qulonglong>(train::datasetContentHash(training))));
  hash.addData(QByteArray::number(memberRows));
  return QStringLiteral("lira-shadows-%1.json")
      .arg(QString::fromLatin1(hash.result().toHex().left(16)));
}

QJsonObject shadowSetToJson(const audit::ShadowSet& set) {
  QJsonArray shadows;
  for (std::size_t s = 0; s < set.phi.size(); ++s) {
    QString in;
    in.reserve(static_cast<qsizetype>(set.in[s].size()));
    for (const char c : set.in[s]) in.append(c ? QLatin1Char('1') : QLatin1Char('0'));
    QJsonArray phi;
    for (const double v : set.phi[s]) phi.append(v);
    shadows.append(QJsonObject{{QStringLiteral("in"), in},
                               {QStringLiteral("phi"), phi},
                               {QStringLiteral("out_accuracy"), set.outAccuracy[s]}});
  }
  return {{QStringLiteral("format"), kFormat},
          {QStringLiteral("version"), 1},
          {QStringLiteral("candidates"),
           static_cast<qint64>(set.phi.empty() ? 0 : set.phi.front().size())},
          {QStringLiteral("shadows"), shadows}};
}

audit::ShadowSet shadowSetFromJson(const QJsonObject& object) {
  JsonReader r(object, QString());
  r.allowOnly({QStringLiteral("format"), QStringLiteral("version"), QStringLiteral("candidates"),
               QStringLiteral("shadows")});
  if (r.string(QStringLiteral("format"), true) != kFormat)
    r.expected(QStringLiteral("format"), kFormat, object.value(QStringLiteral("format")));
  r.integer(QStringLiteral("version"), 1, 1, 1, true);
  const long long n = r.integer(QStringLiteral("candidates"), 2, 1e8, 0, true);
  const QJsonArray shadows = r.array(QStringLiteral("shadows"), true);
  if (shadows.size() > audit::kMaxShadows)
    r.fail(QStringLiteral("shadows"), QStringLiteral("expected at most 256 shadows"));
  audit::ShadowSet set;
  for (qsizetype s = 0; s < shadows.size(); ++s) {
    const QString key = QStringLiteral("shadows[%1]").arg(s);
    if (!shadows[s].isObject()) r.expected(key, QStringLiteral("an object"), shadows[s]);
    JsonReader shadow(shadows[s].toObject(), r.path(key));
    shadow.allowOnly({QStringLiteral("in"), QStringLiteral("phi"), QStringLiteral("out_accuracy")});
    const QString in = shadow.string(QStringLiteral("in"), true);
    const QJsonArray phi = shadow.array(QStringLiteral("phi"), true);
    if (in.size() != n || phi.size() != n) {
      shadow.fail(QStringLiteral("phi"),
                  QStringLiteral("expected %1 memberships and %1 values").arg(n));
    }
    std::vector<char> inside(static_cast<std::size_t>(n));
    std::vector<double> values(static_cast<std::size_t>(n));
    for (qsizetype c = 0; c < n; ++c) {
      if (in[c] != QLatin1Char('0') && in[c] != QLatin1Char('1'))
        shadow.fail(QStringLiteral("in"), QStringLiteral("expected only 0 and 1"));
      inside[static_cast<std::size_t>(c)] = in[c] == QLatin1Char('1');
      if (!phi[c].isDouble() || !std::isfinite(phi[c].toDouble()))
        shadow.expected(QStringLiteral("phi[%1]").arg(c), QStringLiteral("a number"), phi[c]);
      values[static_cast<std::size_t>(c)] = phi[c].toDouble();
    }
    const double accuracy = shadow.number(QStringLiteral("out_accuracy"), true);
    if (accuracy < 0.0 || accuracy > 1.0) {
      shadow.expected(QStringLiteral("out_accuracy"), QStringLiteral("a number in [0, 1]"),
                      accuracy);
    }
    shadow.finish();
    set.in.push_back(std::move(inside));
    set.phi.push_back(std::move(values));
    set.outAccuracy.push_back(accuracy);
  }
  r.finish();
  return set;
}

void writeShadowSet(const QString& path, const audit::ShadowSet& set) {
  writeFileAtomically(path, QJsonDocument(shadowSetToJson(set)).toJson(QJsonDocument::Compact));
}

audit::ShadowSet readShadowSet(const QString& path) {
  const QJsonObject object =
      readJsonObjectFile(path, kMaxShadowBytes, QStringLiteral("LiRA shadow file"));
  try {
    return shadowSetFromJson(object);
  } catch (const ConfigError& e) {
    throw ConfigError(clipped(path).toStdString() + ": " + e.what());
  }
}

QString liraShadowFolder(const QString& sessionPath) {
  if (sessionPath.isEmpty()) {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/lira-shadows");
  }
  const QFileInfo session(sessionPath);
  // A folder of run files keeps its shadows inside it.
  if (session.isDir()) return QDir(sessionPath).filePath(QStringLiteral("lira-shadows"));
  return session.dir().filePath(session.completeBaseName() + QStringLiteral("-lira-shadows"));
}

audit::LiraAttack runLiraKeepingShadows(const nn::Model<float>& target,
                                        const train::ExperimentConfig& config,
                                        const data::Dataset& training, long long memberRows,
                                        const audit::LiraOptions& options, const QString& folder,
                                        const audit::ShadowProgress& onProgress,
                                        const std::atomic<bool>* cancel, QStringList* warnings) {
  audit::ShadowSet kept;
  QString path;
  if (!folder.isEmpty()) {
    path = QDir(folder).filePath(liraShadowFileName(config, training, memberRows));
    if (QFileInfo::exists(path)) {
      try {
        kept = readShadowSet(path);
      } catch (const ConfigError& e) {
        if (warnings) *warnings << QStringLiteral("training again: %1").arg(e.what());
      }
    }
  }
  const std::size_t before = kept.phi.size();
  const audit::LiraAttack lira =
      audit::runLira(target, config, training, memberRows, options, onProgress, cancel,
                     path.isEmpty() ? nullptr : &kept);
  // Only a larger, finished set replaces the file (a run with fewer shadows reuses a prefix).
  if (!path.isEmpty() && !lira.cancelled && kept.phi.size() > before) {
    try {
      if (!QDir().mkpath(folder))
        throw DataError("cannot create the folder '" + clippedText(folder.toStdString()) + "'");
      writeShadowSet(path, kept);
    } catch (const std::exception& e) {  // the attack's result stands all the same
      if (warnings) *warnings << QStringLiteral("shadows not kept: %1").arg(e.what());
    }
  }
  return lira;
}

}  // namespace epsilon::ui
