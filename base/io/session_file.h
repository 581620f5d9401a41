// Sessions on disk: every run (its experiment, status and history) as one versioned JSON
// file {"format": "epsilonlab-session", "version": 1, "runs": [...]}, and the runs'
// histories as CSV or JSON for other tools. Writes are atomic (QSaveFile); reads check
// every key and type and name what is wrong, so a corrupt file changes nothing.
#pragma once

#include <QJsonObject>
#include <QString>
#include <vector>

#include "base/io/run_record.h"
#include "core/common/errors.h"

namespace epsilon::ui {

// A session or export file that cannot be read or written; the message names the file
// and, for content, the JSON path ("runs[2].evals[5].epoch: expected a number").
class SessionError : public epsilon::Error {
 public:
  using epsilon::Error::Error;
};

// The "format" value of a session file (a run file's is "epsilonlab-run").
inline constexpr const char* kSessionFormat = "epsilonlab-session";
// Throws SessionError("<where>: <what>"), the form of every session and run file error.
[[noreturn]] void throwSessionError(const QString& where, const QString& what);

class JsonReader;
// The "status" of a stored run (session or run file): an unknown name is a ConfigError naming
// the key; a run stored while queued or running cannot resume, so it reads as cancelled.
RunStatus readStoredRunStatus(JsonReader& reader);
// A stored run's settings against their ranges (ExperimentConfig::validate: δ in (0, 1), σ ≥ 0,
// epochs > 0, sizes ≥ 1, …); a run that failed before its first evaluation is let through (it
// may hold the settings it was refused for). Throws ConfigError naming the field.
void checkStoredConfig(const RunRecord& run);

QJsonObject runToJson(const RunRecord& run);
RunRecord runFromJson(const QJsonObject& object, const QString& where);  // throws SessionError

QJsonObject sessionToJson(const std::vector<RunRecord>& runs);
std::vector<RunRecord> sessionFromJson(const QJsonObject& session, const QString& fileName);

void saveSession(const QString& path, const std::vector<RunRecord>& runs);  // throws SessionError
std::vector<RunRecord> loadSession(const QString& path);                    // throws SessionError

// One row per evaluation of every run: run, name, step, epoch, accuracy, ε, δ-label, ...
void exportHistoryCsv(const QString& path, const std::vector<RunRecord>& runs);
void exportHistoryJson(const QString& path, const std::vector<RunRecord>& runs);

// Writes bytes atomically; throws SessionError naming the file.
void writeFileAtomically(const QString& path, const QByteArray& bytes);

}  // namespace epsilon::ui
