#include "ui/session_file.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSet>

#include <cmath>

namespace epsilon::ui {

namespace {

constexpr const char* kSessionFormat = "epsilonlab-session";
constexpr int kSessionVersion = 1;

// JSON has no NaN or infinity: store them as null or the strings "inf"/"-inf".
QJsonValue numberToJson(double v) {
  if (std::isnan(v)) return QJsonValue(QJsonValue::Null);
  if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return v;
}

[[noreturn]] void fail(const QString& where, const QString& what) {
  throw SessionError(QStringLiteral("%1: %2").arg(where, what).toStdString());
}

double numberFromJson(const QJsonValue& v, const QString& where) {
  if (v.isNull() || v.isUndefined()) return kNaN;
  if (v.isDouble()) return v.toDouble();
  if (v.isString() && v.toString() == QStringLiteral("inf")) return INFINITY;
  if (v.isString() && v.toString() == QStringLiteral("-inf")) return -INFINITY;
  fail(where, QStringLiteral("expected a number, got %1").arg(QString::fromUtf8(
                  QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1)));
}

// Unknown keys are an error that names the key (DESIGN.md, "Config and session files").
void checkKeys(const QJsonObject& object, const QSet<QString>& allowed, const QString& where) {
  for (auto it = object.begin(); it != object.end(); ++it)
    if (!allowed.contains(it.key())) fail(where, QStringLiteral("unknown key '%1'").arg(it.key()));
}

const QJsonValue& require(const QJsonValue& v, const QString& where) {
  if (v.isUndefined()) fail(where, QStringLiteral("missing"));
  return v;
}

QJsonObject evalToJson(const EvalPoint& e) {
  return QJsonObject{{"step", static_cast<double>(e.step)},
                     {"epoch", numberToJson(e.epoch)},
                     {"train_loss", numberToJson(e.trainLoss)},
                     {"test_accuracy", numberToJson(e.testAccuracy)},
                     {"test_loss", numberToJson(e.testLoss)},
                     {"epsilon", numberToJson(e.epsilon)},
                     {"nominal_epsilon", numberToJson(e.nominalEpsilon)},
                     {"sigma", numberToJson(e.sigma)},
                     {"clip_norm", numberToJson(e.clipNorm)},
                     {"fraction_clipped", numberToJson(e.fractionClipped)},
                     {"gradient_norm", numberToJson(e.gradientNorm)},
                     {"elapsed_seconds", numberToJson(e.elapsedSeconds)}};
}

EvalPoint evalFromJson(const QJsonValue& value, const QString& where) {
  if (!value.isObject()) fail(where, QStringLiteral("expected an object"));
  const QJsonObject o = value.toObject();
  checkKeys(o, {"step", "epoch", "train_loss", "test_accuracy", "test_loss", "epsilon", "nominal_epsilon",
                "sigma", "clip_norm", "fraction_clipped", "gradient_norm", "elapsed_seconds"}, where);
  EvalPoint e;
  const double step = numberFromJson(require(o.value("step"), where + ".step"), where + ".step");
  if (!(step >= 0) || step != std::floor(step)) fail(where + ".step", QStringLiteral("expected a whole number ≥ 0"));
  e.step = static_cast<long long>(step);
  e.epoch = numberFromJson(o.value("epoch"), where + ".epoch");
  e.trainLoss = numberFromJson(o.value("train_loss"), where + ".train_loss");
  e.testAccuracy = numberFromJson(o.value("test_accuracy"), where + ".test_accuracy");
  if (std::isfinite(e.testAccuracy) && (e.testAccuracy < 0 || e.testAccuracy > 1))
    fail(where + ".test_accuracy", QStringLiteral("expected a fraction in [0, 1], got %1").arg(e.testAccuracy));
  e.testLoss = numberFromJson(o.value("test_loss"), where + ".test_loss");
  e.epsilon = numberFromJson(o.value("epsilon"), where + ".epsilon");
  e.nominalEpsilon = numberFromJson(o.value("nominal_epsilon"), where + ".nominal_epsilon");
  e.sigma = numberFromJson(o.value("sigma"), where + ".sigma");
  e.clipNorm = numberFromJson(o.value("clip_norm"), where + ".clip_norm");
  e.fractionClipped = numberFromJson(o.value("fraction_clipped"), where + ".fraction_clipped");
  e.gradientNorm = numberFromJson(o.value("gradient_norm"), where + ".gradient_norm");
  e.elapsedSeconds = numberFromJson(o.value("elapsed_seconds"), where + ".elapsed_seconds");
  return e;
}

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvNumber(double v) {
  if (std::isnan(v)) return {};
  if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return QString::number(v, 'g', 10);
}

}  // namespace

QJsonObject runToJson(const RunRecord& run) {
  QJsonArray evals;
  for (const auto& e : run.evals) evals.append(evalToJson(e));
  QJsonArray losses;
  for (const auto& l : run.losses) losses.append(QJsonArray{static_cast<double>(l.step), numberToJson(l.loss)});
  return QJsonObject{{"id", run.id},
                     {"name", run.name},
                     {"color", run.color.name()},
                     {"visible", run.visible},
                     {"status", runStatusName(run.status)},
                     {"message", run.message},
                     {"progress", numberToJson(run.progress)},
                     {"elapsed_seconds", numberToJson(run.elapsedSeconds)},
                     {"privacy_label", run.privacyLabel},
                     {"config", run.config},
                     {"evals", evals},
                     {"losses", losses}};
}

RunRecord runFromJson(const QJsonObject& o, const QString& where) {
  checkKeys(o, {"id", "name", "color", "visible", "status", "message", "progress", "elapsed_seconds",
                "privacy_label", "config", "evals", "losses"}, where);
  RunRecord run;
  const double id = numberFromJson(require(o.value("id"), where + ".id"), where + ".id");
  if (!(id >= 1 && id <= 1e9) || id != std::floor(id)) fail(where + ".id", QStringLiteral("expected a whole number ≥ 1"));
  run.id = static_cast<int>(id);
  if (!require(o.value("name"), where + ".name").isString()) fail(where + ".name", QStringLiteral("expected a string"));
  run.name = o.value("name").toString();
  run.color = QColor(o.value("color").toString());
  if (!run.color.isValid()) fail(where + ".color", QStringLiteral("expected a colour like \"#0072b2\""));
  run.visible = o.value("visible").toBool(true);
  const QString status = o.value("status").toString();
  run.status = parseRunStatus(status);
  if (runStatusName(run.status) != status) fail(where + ".status", QStringLiteral("unknown status '%1'").arg(status));
  // A run that was training when the session was saved cannot resume: it was stopped.
  if (run.status == RunStatus::Queued || run.status == RunStatus::Running) run.status = RunStatus::Cancelled;
  run.message = o.value("message").toString();
  run.progress = numberFromJson(o.value("progress"), where + ".progress");
  run.elapsedSeconds = numberFromJson(o.value("elapsed_seconds"), where + ".elapsed_seconds");
  run.privacyLabel = o.value("privacy_label").toString();
  if (!require(o.value("config"), where + ".config").isObject()) fail(where + ".config", QStringLiteral("expected an object"));
  run.config = o.value("config").toObject();
  const QJsonValue evals = o.value("evals");
  if (!evals.isArray()) fail(where + ".evals", QStringLiteral("expected an array"));
  const QJsonArray evalArray = evals.toArray();
  for (qsizetype i = 0; i < evalArray.size(); ++i)
    run.evals.push_back(evalFromJson(evalArray.at(i), QStringLiteral("%1.evals[%2]").arg(where).arg(i)));
  const QJsonValue losses = o.value("losses");
  if (!losses.isUndefined()) {
    if (!losses.isArray()) fail(where + ".losses", QStringLiteral("expected an array"));
    const QJsonArray lossArray = losses.toArray();
    for (qsizetype i = 0; i < lossArray.size(); ++i) {
      const QString at = QStringLiteral("%1.losses[%2]").arg(where).arg(i);
      const QJsonArray pair = lossArray.at(i).toArray();
      if (!lossArray.at(i).isArray() || pair.size() != 2) fail(at, QStringLiteral("expected [step, loss]"));
      run.losses.push_back({static_cast<long long>(numberFromJson(pair.at(0), at)), numberFromJson(pair.at(1), at)});
    }
  }
  return run;
}

QJsonObject sessionToJson(const std::vector<RunRecord>& runs) {
  QJsonArray array;
  for (const auto& r : runs) array.append(runToJson(r));
  return QJsonObject{{"format", QString::fromLatin1(kSessionFormat)}, {"version", kSessionVersion}, {"runs", array}};
}

std::vector<RunRecord> sessionFromJson(const QJsonObject& session, const QString& fileName) {
  checkKeys(session, {"format", "version", "runs"}, fileName);
  if (session.value("format").toString() != QString::fromLatin1(kSessionFormat))
    fail(fileName, QStringLiteral("not an EpsilonLab session (format is '%1', expected '%2')")
                       .arg(session.value("format").toString(), QString::fromLatin1(kSessionFormat)));
  if (session.value("version").toInt(-1) != kSessionVersion)
    fail(fileName + QStringLiteral(": version"),
         QStringLiteral("expected %1, got %2").arg(kSessionVersion).arg(session.value("version").toVariant().toString()));
  if (!session.value("runs").isArray()) fail(fileName + QStringLiteral(": runs"), QStringLiteral("expected an array"));
  std::vector<RunRecord> runs;
  QSet<int> ids;
  const QJsonArray array = session.value("runs").toArray();
  for (qsizetype i = 0; i < array.size(); ++i) {
    const QString where = QStringLiteral("%1: runs[%2]").arg(fileName).arg(i);
    if (!array.at(i).isObject()) fail(where, QStringLiteral("expected an object"));
    RunRecord run = runFromJson(array.at(i).toObject(), where);
    if (ids.contains(run.id)) fail(where + QStringLiteral(".id"), QStringLiteral("duplicate run id %1").arg(run.id));
    ids.insert(run.id);
    runs.push_back(std::move(run));
  }
  return runs;
}

void writeFileAtomically(const QString& path, const QByteArray& bytes) {
  const QFileInfo target(path);
  if (target.exists() && !target.isFile()) {
    // A device or pipe (/dev/full, a FIFO): QSaveFile would rename its temporary file over
    // the node (as root it replaces /dev/full), so write to it directly and report errors.
    QFile direct(path);
    if (!direct.open(QIODevice::WriteOnly) || direct.write(bytes) != bytes.size() || !direct.flush())
      throw SessionError(QStringLiteral("Cannot write %1: %2").arg(path, direct.errorString()).toStdString());
    return;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    throw SessionError(QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()).toStdString());
  if (file.write(bytes) != bytes.size()) {
    file.cancelWriting();
    throw SessionError(QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()).toStdString());
  }
  // Flush before commit: commit() can lose a write error of the buffered tail (a full disk,
  // /dev/full) and report success.
  if (!file.flush()) {
    const QString reason = file.errorString();
    file.cancelWriting();
    throw SessionError(QStringLiteral("Cannot write %1: %2").arg(path, reason).toStdString());
  }
  if (!file.commit())
    throw SessionError(QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()).toStdString());
}

void saveSession(const QString& path, const std::vector<RunRecord>& runs) {
  writeFileAtomically(path, QJsonDocument(sessionToJson(runs)).toJson(QJsonDocument::Indented));
}

std::vector<RunRecord> loadSession(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    throw SessionError(QStringLiteral("Cannot open %1: %2").arg(path, file.errorString()).toStdString());
  constexpr qint64 kMaxSessionBytes = 512LL << 20;
  if (file.size() > kMaxSessionBytes)
    throw SessionError(QStringLiteral("%1: %2 bytes is larger than a session can be (512 MiB)")
                           .arg(path).arg(file.size()).toStdString());
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
  if (error.error != QJsonParseError::NoError)
    throw SessionError(QStringLiteral("%1: not valid JSON at byte %2 (%3)")
                           .arg(path).arg(error.offset).arg(error.errorString()).toStdString());
  if (!doc.isObject()) throw SessionError(QStringLiteral("%1: expected a JSON object at the top").arg(path).toStdString());
  return sessionFromJson(doc.object(), path);
}

void exportHistoryCsv(const QString& path, const std::vector<RunRecord>& runs) {
  QString text = QStringLiteral(
      "run_id,run_name,step,epoch,train_loss,test_accuracy,test_loss,epsilon,nominal_epsilon,privacy,"
      "sigma,clip_norm,fraction_clipped,gradient_norm,elapsed_seconds\n");
  for (const auto& r : runs) {
    for (const auto& e : r.evals) {
      const QStringList fields{QString::number(r.id), csvField(r.name), QString::number(e.step),
                               csvNumber(e.epoch), csvNumber(e.trainLoss), csvNumber(e.testAccuracy),
                               csvNumber(e.testLoss), csvNumber(e.epsilon), csvNumber(e.nominalEpsilon),
                               csvField(r.privacyLabel), csvNumber(e.sigma), csvNumber(e.clipNorm),
                               csvNumber(e.fractionClipped), csvNumber(e.gradientNorm),
                               csvNumber(e.elapsedSeconds)};
      text += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
  }
  writeFileAtomically(path, text.toUtf8());
}

void exportHistoryJson(const QString& path, const std::vector<RunRecord>& runs) {
  saveSession(path, runs);
}

}  // namespace epsilon::ui
